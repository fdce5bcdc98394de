import type { DeviceRef } from '../../schema/sync/device';
import { proposalText, useSyncStatus } from '../chat/proposal-words';

/**
 * A decision sent to the device that runs the conversation (sync): nothing changed here yet, and this says where it went,
 * or that it waits on this device while sync cannot reach the server.
 */
export function ProposalNote(props: { device: DeviceRef | undefined }) {
  const sync = useSyncStatus();
  return (
    <p role="status" class="proposal-note">
      {props.device ? proposalText('decision', props.device, sync()) : ''}
    </p>
  );
}

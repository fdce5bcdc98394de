import { Show } from 'solid-js';
import type { DeviceRef } from '../../../schema/device';
import { deviceName } from '../../device-name';
import { t } from '../../i18n/i18n';

/** A decision sent to the device that runs the conversation (sync): nothing changed here yet, and this says where it went. */
export function ProposalNote(props: { device: DeviceRef | undefined }) {
  return (
    <p role="status" class="proposal-note">
      <Show when={props.device}>{(device) => t('sync.proposed', { device: deviceName(device()) })}</Show>
    </p>
  );
}

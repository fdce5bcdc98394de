import { useContext } from 'solid-js';
import type { DeviceRef } from '../../schema/sync/device';
import type { SyncStatus } from '../../schema/sync/sync';
import { AppContext } from '../state/app-context';
import { deviceName } from '../sync/device-name';
import { t, type MessageKey } from '../i18n/i18n';

/** What was sent to the device that runs a conversation: a decision (an answer, Allow, Deny, a form), a message, Stop. */
type ProposalKind = 'decision' | 'message' | 'stop';

/** Sent only while sync can reach the server: offline, or stopped on an error, it waits on this device. */
const KEYS: Record<ProposalKind, Record<'sent' | 'offline' | 'stopped', MessageKey>> = {
  decision: { sent: 'sync.proposed', offline: 'sync.proposedOffline', stopped: 'sync.proposedStopped' },
  message: { sent: 'sync.proposedMessage', offline: 'sync.proposedMessageOffline', stopped: 'sync.proposedMessageStopped' },
  stop: { sent: 'sync.proposedStop', offline: 'sync.proposedStopOffline', stopped: 'sync.proposedStopStopped' },
};

/** "Sent to Laptop…", or, while this device cannot reach the sync server, that it waits here until it can. */
export function proposalText(kind: ProposalKind, device: DeviceRef | undefined, sync: SyncStatus | undefined): string {
  const state = sync?.state === 'offline' ? 'offline' : sync?.state === 'error' ? 'stopped' : 'sent';
  return t(KEYS[kind][state], { device: deviceName(device) });
}

/** Sync's status as the app last heard it, where a component may be shown without the app around it (tests). */
export function useSyncStatus(): () => SyncStatus | undefined {
  const app = useContext(AppContext);
  return () => app?.state.sync;
}

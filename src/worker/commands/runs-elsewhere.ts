import type { DeviceRef } from '../../schema/device';
import { WireError } from '../../schema/wire-error';
import type { SyncGate } from '../sync/sync-gate';

/** The words for a change refused because another device runs the conversation. */
export function runsElsewhere(device: DeviceRef): WireError {
  return new WireError({
    code: 'invalid_state',
    reason: 'runs_elsewhere',
    params: { device: device.name },
    message: `This conversation runs on ${device.name || 'another device'}. Press "Continue on this device" to change it here.`,
  });
}

/** Refuses a change of a conversation another device runs (sync): only that device changes it. */
export function assertRunsHere(sync: SyncGate | undefined, conversationId: string): void {
  const elsewhere = sync?.runnerElsewhere(conversationId);
  if (elsewhere) throw runsElsewhere(elsewhere);
}

/** `assertRunsHere` as an expression: `runsHere(sync, id) && change()`. */
export function runsHere(sync: SyncGate | undefined, conversationId: string): true {
  assertRunsHere(sync, conversationId);
  return true;
}

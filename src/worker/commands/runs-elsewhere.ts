import type { DeviceRef } from '../../schema/sync/device';
import { WireError } from '../../schema/wire-error';

/** The words for a change refused because another device runs the conversation. */
export function runsElsewhere(device: DeviceRef): WireError {
  return new WireError({
    code: 'invalid_state',
    reason: 'runs_elsewhere',
    params: { device: device.name },
    message: `This conversation runs on ${device.name || 'another device'}. Press "Continue on this device" to change it here.`,
  });
}

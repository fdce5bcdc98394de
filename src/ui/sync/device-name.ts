import type { DeviceRef } from '../../schema/sync/device';
import { t } from '../i18n/i18n';

/** A device as a sentence names it: its name, or "another device" when it has none (the name is optional). */
export function deviceName(device: DeviceRef | undefined): string {
  return device?.name.trim() || t('sync.anotherDevice');
}

/** Whether a request was decided on a device other than this one; false while this device's id is not known yet. */
export function decidedElsewhere(resolvedOn: DeviceRef | undefined, thisDeviceId: string | undefined): resolvedOn is DeviceRef {
  return resolvedOn !== undefined && thisDeviceId !== undefined && resolvedOn.id !== thisDeviceId;
}

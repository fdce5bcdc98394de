import type { DeviceRef } from '../../schema/sync/device';
import type { SyncStatus } from '../../schema/sync/sync';
import type { ParleyDatabase } from '../store/database';

/** Settings keys (in the `settings` store) of what sync keeps on this device. Never exported, never synced. */
export const DEVICE_KEY = 'device';
export const SYNC_KEY = 'sync';
/** The mirror "Turn off sync" was asked to keep for a later "Turn on sync" (sync-service.ts). */
export const KEPT_MIRROR_KEY = 'sync-kept-mirror';
/** The nonces of the proposals this device applied as a runner: one key each, `APPLIED_PROPOSAL_PREFIX` (store/database.ts). */

/** This device's id and name, made (and stored) the first time they are needed. */
export async function loadDevice(deps: { database: ParleyDatabase; newId(): string }): Promise<DeviceRef> {
  const stored = (await deps.database.get('settings', DEVICE_KEY)) as DeviceRef | undefined;
  if (stored?.id) return stored;
  const device = { id: deps.newId(), name: defaultDeviceName() };
  await deps.database.put('settings', device, DEVICE_KEY);
  return device;
}

/** Sync's status while it is off: this device, and whether a mirror was kept, read without loading sync's code. */
export async function syncOffStatus(deps: { database: ParleyDatabase; newId(): string }): Promise<SyncStatus> {
  const kept = await deps.database.get('settings', KEPT_MIRROR_KEY);
  return { state: 'off', device: await loadDevice(deps), ...(kept ? { mirrorKept: true } : {}) };
}

/** A first name for this device, from what the browser says of its platform ("Android phone", "Mac"…). */
function defaultDeviceName(): string {
  const agent = globalThis.navigator?.userAgent ?? '';
  if (/Android/i.test(agent)) return /Mobile/i.test(agent) ? 'Android phone' : 'Android tablet';
  if (/iPhone/i.test(agent)) return 'iPhone';
  if (/iPad/i.test(agent)) return 'iPad';
  if (/Mac OS X/i.test(agent)) return 'Mac';
  if (/Windows/i.test(agent)) return 'Windows PC';
  if (/CrOS/i.test(agent)) return 'Chromebook';
  if (/Linux/i.test(agent)) return 'Linux computer';
  return 'This device';
}

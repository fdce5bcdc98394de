import { WireError } from '../../schema/wire-error';

/**
 * A storage failure as the UI words it: a reason, and for a full disk how many bytes Parley uses of what the browser
 * allows it. `message` stays English, for developers.
 */
export async function describeStorageError(error: unknown): Promise<{ message: string; reason?: 'storage_full' | 'save_failed'; usage?: number; quota?: number }> {
  const text = error instanceof Error ? error.message : String(error);
  if (!(error instanceof WireError && error.code === 'storage_full')) return { message: text, ...(error instanceof WireError && error.reason === 'save_failed' ? { reason: 'save_failed' as const } : {}) };
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => undefined);
  if (!estimate?.usage || !estimate.quota) return { message: text, reason: 'storage_full' };
  const megabytes = (bytes: number) => `${Math.round(bytes / 100_000) / 10} MB`;
  const message = `${text} Parley uses ${megabytes(estimate.usage)} of the ${megabytes(estimate.quota)} this browser allows it. Delete conversations you no longer need (export them first in Settings → Your data to keep a copy).`;
  return { message, reason: 'storage_full', usage: estimate.usage, quota: estimate.quota };
}


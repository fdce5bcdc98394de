import { VIEW_LOCK_PREFIX } from '../../schema/limits';

/**
 * Holds a shared Web Lock saying "this tab shows this conversation", so no tab's clean-up of unused conversations takes
 * it away while it is on screen. The returned function lets go and resolves once the browser has released the lock, so
 * a clean-up asked for after it no longer sees this tab's hold. Without Web Locks (tests), it holds nothing.
 */
export function holdViewLock(conversationId: string): () => Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return () => Promise.resolve();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const released = locks.request(VIEW_LOCK_PREFIX + conversationId, { mode: 'shared' }, () => held).then(
    () => undefined,
    () => undefined,
  );
  return () => {
    release();
    return released;
  };
}

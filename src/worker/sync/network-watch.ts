/** How often the worker looks at `navigator.onLine` (a dedicated worker is not always sent `online`/`offline` events). */
const NETWORK_CHECK_MS = 1000;

/**
 * Calls `onChange(online)` when the browser's network goes away or comes back. A live replication that is idle makes no
 * request that could fail, so without this a device that lost its network kept saying "Synced" until something was
 * written. Listens for the events where the worker gets them, and looks at `navigator.onLine` every second where it
 * does not. Returns what stops it.
 */
export function watchNetwork(onChange: (online: boolean) => void, scope: Pick<typeof globalThis, 'addEventListener' | 'removeEventListener' | 'navigator'> = globalThis): () => void {
  let online = scope.navigator?.onLine !== false;
  const check = () => {
    const now = scope.navigator?.onLine !== false;
    if (now === online) return;
    online = now;
    onChange(now);
  };
  scope.addEventListener('online', check);
  scope.addEventListener('offline', check);
  const timer = setInterval(check, NETWORK_CHECK_MS);
  return () => {
    clearInterval(timer);
    scope.removeEventListener('online', check);
    scope.removeEventListener('offline', check);
  };
}

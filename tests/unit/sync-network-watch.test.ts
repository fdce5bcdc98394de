import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchNetwork } from '../../src/worker/sync/network-watch';

// An idle live replication makes no request that could fail: without a look at the network, a device that lost it
// said "Synced" until something was written. A dedicated worker is not always sent `offline` (Chromium under
// Playwright's setOffline sends none), so `navigator.onLine` is looked at too.

afterEach(() => vi.useRealTimers());

function fakeScope() {
  const target = new EventTarget();
  const navigator = { onLine: true };
  const scope = { addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target), navigator } as never;
  return { target, navigator, scope };
}

describe('watchNetwork', () => {
  it('tells each change once, from the events or, without them, from navigator.onLine; nothing after it is stopped', () => {
    vi.useFakeTimers();
    const { target, navigator, scope } = fakeScope();
    const changes: boolean[] = [];
    const stop = watchNetwork((online) => changes.push(online), scope);

    navigator.onLine = false;
    target.dispatchEvent(new Event('offline'));
    vi.advanceTimersByTime(3000);
    expect(changes).toEqual([false]);

    // No event this time: the next look finds it back.
    navigator.onLine = true;
    vi.advanceTimersByTime(1000);
    expect(changes).toEqual([false, true]);

    stop();
    navigator.onLine = false;
    target.dispatchEvent(new Event('offline'));
    vi.advanceTimersByTime(3000);
    expect(changes).toEqual([false, true]);
  });
});

import { describe, expect, it } from 'vitest';
import { appliedTracker, pausedState } from '../../src/worker/sync/mirror/replication-status';

// The status "says what it is doing". Replication pauses as soon as the documents are in the mirror, and the
// engine applies them to Parley's own store after; "Synced" must wait for that, or a device says "Synced" while the
// conversations it received are not on screen yet (found measuring the initial sync: D said "Synced" seconds early).

describe('"Synced" waits for what was received to be applied', () => {
  it('is idle only when every change handed on has been applied, and says so once then', () => {
    const tracker = appliedTracker();
    let idleCalls = 0;
    tracker.whenIdle(() => (idleCalls += 1));
    expect(tracker.idle).toBe(true);
    tracker.handed(1); // the catch-up
    tracker.handed(3); // three live changes
    expect(tracker.idle).toBe(false);
    tracker.applied(1);
    expect(tracker.idle).toBe(false);
    expect(idleCalls).toBe(0);
    tracker.applied(3);
    expect(tracker.idle).toBe(true);
    expect(idleCalls).toBe(1);
    tracker.whenIdle(undefined);
    tracker.handed(1);
    tracker.applied(1);
    expect(idleCalls).toBe(1);
  });

  it('both directions paused with changes still being applied is Syncing, then Synced; an error wins either way', () => {
    expect(pausedState(undefined, false)).toEqual({ state: 'syncing', done: 0 });
    expect(pausedState(undefined, true)).toEqual({ state: 'synced' });
    const unreachable = Object.assign(new Error('Failed to fetch'), { status: 0 });
    expect(pausedState(unreachable as never, false).state).toBe('offline');
    expect(pausedState(unreachable as never, true).state).toBe('offline');
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileArrivals } from '../../src/worker/sync/content/file-arrivals';

// A model step waits for a file still syncing here (file-arrivals.ts): while its chunks keep coming, not once they stop.

/** Whether the promise has settled, after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('waiting for a file on its way here', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('ends when the file is stored, and a wait begun after the store ends at once', async () => {
    const arrivals = new FileArrivals(1000);
    const waiting = arrivals.wait('a1');
    await vi.advanceTimersByTimeAsync(900);
    expect(await settled(waiting)).toBe(false);
    arrivals.here('a1');
    expect(await settled(waiting)).toBe(true);
    expect(await settled(arrivals.wait('a1'))).toBe(true);
  });

  it('goes on while chunks keep coming, and gives up after the idle time without one', async () => {
    const arrivals = new FileArrivals(1000);
    const waiting = arrivals.wait('a1');
    for (let chunk = 0; chunk < 5; chunk += 1) {
      await vi.advanceTimersByTimeAsync(800);
      arrivals.chunk('a1');
      arrivals.chunk('another file');
    }
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(waiting)).toBe(true);
  });

  it('does not wait again for a file given up, until a chunk of it arrives', async () => {
    const arrivals = new FileArrivals(1000);
    const first = arrivals.wait('a1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(first)).toBe(true);
    // The run's next step goes on at once.
    expect(await settled(arrivals.wait('a1'))).toBe(true);
    arrivals.chunk('a1');
    const again = arrivals.wait('a1');
    expect(await settled(again)).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(again)).toBe(true);
  });

  it('ends at once when the step is stopped or the engine stops, and a stopped step does not mark the file given up', async () => {
    const arrivals = new FileArrivals(1000);
    const controller = new AbortController();
    const stopped = arrivals.wait('a1', controller.signal);
    const other = arrivals.wait('a2');
    controller.abort();
    expect(await settled(stopped)).toBe(true);
    expect(await settled(other)).toBe(false);
    expect(await settled(arrivals.wait('a1'))).toBe(false);
    arrivals.stop();
    expect(await settled(other)).toBe(true);
    expect(await settled(arrivals.wait('a3', controller.signal))).toBe(true);
  });

  it('ends the waits for a file that came but could not be stored, without giving it up', async () => {
    const arrivals = new FileArrivals(1000);
    const waiting = arrivals.wait('a1');
    arrivals.end('a1');
    expect(await settled(waiting)).toBe(true);
    expect(await settled(arrivals.wait('a1'))).toBe(false);
  });

  it('ends every wait for one file together', async () => {
    const arrivals = new FileArrivals(1000);
    const waits = [arrivals.wait('a1'), arrivals.wait('a1')];
    arrivals.here('a1');
    expect(await Promise.all(waits.map(settled))).toEqual([true, true]);
  });
});

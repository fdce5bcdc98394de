import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescedWriter, type Timers } from '../../src/core/run/coalesced-writer';

// The port is backed by the global timers, which vitest fakes, so the test drives time.
const timers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const INTERVAL_MS = 100;

/** A write that records its value and the fake time it happened at. */
function recordingWrite() {
  const writes: Array<{ value: string; at: number }> = [];
  const write = vi.fn(async (value: string) => {
    writes.push({ value, at: Date.now() });
  });
  return { writes, write };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createCoalescedWriter', () => {
  it('writes only the latest of many values scheduled within one interval', async () => {
    const { writes, write } = recordingWrite();
    const writer = createCoalescedWriter(write, { intervalMs: INTERVAL_MS, timers });
    for (const value of ['a', 'ab', 'abc', 'abcd']) {
      writer.schedule(value);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(writes).toEqual([{ value: 'abcd', at: INTERVAL_MS }]);
    await vi.advanceTimersByTimeAsync(10 * INTERVAL_MS);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('writes a value no later than one interval after it was scheduled', async () => {
    const { writes, write } = recordingWrite();
    const writer = createCoalescedWriter(write, { intervalMs: INTERVAL_MS, timers });
    writer.schedule('first');
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([{ value: 'first', at: INTERVAL_MS }]);
  });

  it('bounds writes to 1000 / intervalMs per second over a long burst', async () => {
    let counter = 0;
    const writes: Array<{ value: string; at: number; latest: string }> = [];
    const writer = createCoalescedWriter(
      async (value: string) => {
        writes.push({ value, at: Date.now(), latest: `value ${counter}` });
      },
      { intervalMs: INTERVAL_MS, timers },
    );
    const burst = setInterval(() => writer.schedule(`value ${++counter}`), 10);
    await vi.advanceTimersByTimeAsync(5_000);
    clearInterval(burst);

    const perSecondLimit = 1000 / INTERVAL_MS;
    expect(counter).toBe(500);
    expect(writes.length).toBeLessThanOrEqual(5 * perSecondLimit);
    for (let second = 0; second < 5; second += 1) {
      const inSecond = writes.filter((entry) => entry.at >= second * 1000 && entry.at < (second + 1) * 1000);
      expect(inSecond.length).toBeLessThanOrEqual(perSecondLimit);
      // Still writing steadily during the burst, not only at its end.
      expect(inSecond.length).toBeGreaterThanOrEqual(perSecondLimit - 2);
    }
    for (let index = 1; index < writes.length; index += 1) {
      const gap = writes[index]!.at - writes[index - 1]!.at;
      expect(gap).toBeGreaterThanOrEqual(INTERVAL_MS);
      // One schedule tick of slack: the timer is armed by the first schedule after a write.
      expect(gap).toBeLessThanOrEqual(INTERVAL_MS + 10);
    }
    // Every write carries the newest value scheduled so far.
    for (const entry of writes) expect(entry.value).toBe(entry.latest);
    // The last value scheduled is written within the next interval.
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(writes.at(-1)?.value).toBe('value 500');
  });

  it('flush writes the pending value at once and resolves after the write', async () => {
    let finishWrite: (() => void) | undefined;
    const written: string[] = [];
    const writer = createCoalescedWriter(
      (value: string) =>
        new Promise<void>((resolve) => {
          finishWrite = () => {
            written.push(value);
            resolve();
          };
        }),
      { intervalMs: INTERVAL_MS, timers },
    );
    writer.schedule('pending');
    let flushed = false;
    const flushing = writer.flush().then(() => {
      flushed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(finishWrite).toBeDefined();
    expect(flushed).toBe(false);
    finishWrite!();
    await flushing;
    expect(flushed).toBe(true);
    expect(written).toEqual(['pending']);
    expect(Date.now()).toBe(0);

    // The cancelled timer does not write the same value a second time.
    finishWrite = undefined;
    await vi.advanceTimersByTimeAsync(5 * INTERVAL_MS);
    expect(finishWrite).toBeUndefined();
  });

  it('after a flush, the next value waits a full interval (the old timer is cancelled)', async () => {
    const { writes, write } = recordingWrite();
    const writer = createCoalescedWriter(write, { intervalMs: INTERVAL_MS, timers });
    writer.schedule('first');
    await vi.advanceTimersByTimeAsync(50);
    await writer.flush();
    await vi.advanceTimersByTimeAsync(10);
    writer.schedule('second');
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(writes).toEqual([{ value: 'first', at: 50 }]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([
      { value: 'first', at: 50 },
      { value: 'second', at: 60 + INTERVAL_MS },
    ]);
  });

  it('flush with nothing pending writes nothing', async () => {
    const { write } = recordingWrite();
    const writer = createCoalescedWriter(write, { intervalMs: INTERVAL_MS, timers });
    await writer.flush();
    expect(write).not.toHaveBeenCalled();
  });

  it('close drops the pending value and ignores later schedules', async () => {
    const { write } = recordingWrite();
    const writer = createCoalescedWriter(write, { intervalMs: INTERVAL_MS, timers });
    writer.schedule('dropped');
    await writer.close();
    writer.schedule('ignored');
    await vi.advanceTimersByTimeAsync(10 * INTERVAL_MS);
    await writer.flush();
    expect(write).not.toHaveBeenCalled();
  });

  it('close waits for a write in flight', async () => {
    let finishWrite: (() => void) | undefined;
    const writer = createCoalescedWriter(
      () =>
        new Promise<void>((resolve) => {
          finishWrite = resolve;
        }),
      { intervalMs: INTERVAL_MS, timers },
    );
    writer.schedule('in flight');
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(finishWrite).toBeDefined();
    let closed = false;
    const closing = writer.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    finishWrite!();
    await closing;
    expect(closed).toBe(true);
  });

  it('reports a failing write to onError and still makes the next write', async () => {
    const errors: unknown[] = [];
    const attempts: string[] = [];
    const failure = new Error('quota exceeded');
    const writer = createCoalescedWriter(
      async (value: string) => {
        attempts.push(value);
        if (value === 'bad') throw failure;
      },
      { intervalMs: INTERVAL_MS, timers, onError: (error) => errors.push(error) },
    );
    writer.schedule('bad');
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(errors).toEqual([failure]);

    writer.schedule('good');
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(attempts).toEqual(['bad', 'good']);
    expect(errors).toHaveLength(1);

    // flush does not reject after a failure either.
    writer.schedule('bad');
    await writer.flush(); // rejects if the failure escaped
    expect(errors).toHaveLength(2);
  });
});

describe('createCoalescedWriter with a throwing onError', () => {
  // Every write is chained onto the one before: a throwing reporter must not leave that chain rejected.
  it('still makes the next write when onError itself throws', async () => {
    const attempts: string[] = [];
    const writer = createCoalescedWriter(
      async (value: string) => {
        attempts.push(value);
        if (value === 'bad') throw new Error('quota exceeded');
      },
      {
        intervalMs: INTERVAL_MS,
        timers,
        onError: () => {
          throw new Error('reporter failed');
        },
      },
    );
    writer.schedule('bad');
    await writer.flush().catch(() => undefined);
    writer.schedule('good');
    await writer.flush().catch(() => undefined);
    expect(attempts).toEqual(['bad', 'good']);
  });
});

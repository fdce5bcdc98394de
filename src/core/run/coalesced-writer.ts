/** Timers as a port, so tests can drive time. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CoalescedWriter<T> {
  /** Remembers the latest value; it is written within `intervalMs`, at most once per interval. */
  schedule(value: T): void;
  /** Writes the pending value now (if any) and waits for every write started so far. */
  flush(): Promise<void>;
  /** Drops the pending value and waits for a write in flight; later schedules are ignored. */
  close(): Promise<void>;
}

/**
 * Bounds the writes of a fast-changing record (a streaming message) to one per interval: the latest value wins and
 * nothing older than `intervalMs` stays unwritten. A failed write is reported, not thrown: the next one may succeed.
 */
export function createCoalescedWriter<T>(
  write: (value: T) => Promise<void>,
  options: { intervalMs: number; timers: Timers; onError?: (error: unknown) => void },
): CoalescedWriter<T> {
  let pending: { value: T } | undefined;
  let timer: unknown;
  let inFlight: Promise<void> = Promise.resolve();
  let closed = false;

  // A timer is armed by the first schedule after a write, so writes are at least `intervalMs` apart.
  const writeNow = (): Promise<void> => {
    timer = undefined;
    if (!pending) return inFlight;
    const { value } = pending;
    pending = undefined;
    inFlight = inFlight
      .then(() => write(value))
      .catch((error: unknown) => {
        try {
          void options.onError?.(error);
        } catch {
          // a failing reporter must not stop later writes
        }
      });
    return inFlight;
  };

  return {
    schedule(value) {
      if (closed) return;
      pending = { value };
      if (timer === undefined) timer = options.timers.setTimeout(() => void writeNow(), options.intervalMs);
    },
    flush() {
      if (timer !== undefined) options.timers.clearTimeout(timer);
      return writeNow();
    },
    async close() {
      closed = true;
      pending = undefined;
      if (timer !== undefined) options.timers.clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

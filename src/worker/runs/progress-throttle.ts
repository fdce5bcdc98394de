import type { Timers } from '../../core/run/coalesced-writer';
import type { Message } from '../../schema/records';

/** Sends the latest value per key, at a bounded rate. */
interface LatestThrottle<T> {
  /** A value changed: it is sent at once if quiet, else with the next tick (latest value wins). */
  push(value: T): void;
  /** A newer record of this key went out another way: anything pending for it is older, drop it. */
  settle(key: string): void;
}

/** A streaming message's throttle, keyed by message id. */
type ProgressThrottle = LatestThrottle<Message>;

/**
 * Bounds how often a streaming message crosses to the UI and to other tabs: the first change at once, then at most one
 * per `intervalMs` per message. Each send is a structured clone of the whole message, so sending every delta would cost
 * the square of the reply's length.
 */
export function createProgressThrottle(send: (message: Message) => void, options: { intervalMs: number; timers: Timers }): ProgressThrottle {
  return createLatestThrottle((message) => message.id, send, options);
}

/** The same bound for any value with a key (a tool call's progress): the first at once, then at most one per interval. */
export function createLatestThrottle<T>(keyOf: (value: T) => string, send: (value: T) => void, options: { intervalMs: number; timers: Timers }): LatestThrottle<T> {
  const slots = new Map<string, { timer: unknown; pending?: T }>();

  const tick = (key: string) => {
    const slot = slots.get(key);
    if (!slot) return;
    if (!slot.pending) {
      slots.delete(key);
      return;
    }
    const { pending } = slot;
    delete slot.pending;
    send(pending);
    slot.timer = options.timers.setTimeout(() => tick(key), options.intervalMs);
  };

  return {
    push(value) {
      const key = keyOf(value);
      const slot = slots.get(key);
      if (slot) {
        slot.pending = value;
        return;
      }
      send(value);
      slots.set(key, { timer: options.timers.setTimeout(() => tick(key), options.intervalMs) });
    },
    settle(key) {
      // Only what is pending is older; the rate window stays, so persisted writes do not add sends.
      const slot = slots.get(key);
      if (slot) delete slot.pending;
    },
  };
}

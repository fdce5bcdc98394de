import type { Timers } from '../core/coalesced-writer';
import type { Message } from '../schema/records';

export interface ProgressThrottle {
  /** A streaming message changed: it is sent at once if quiet, else with the next tick (latest value wins). */
  push(message: Message): void;
  /** A persisted write of this message went out: anything pending for it is older, drop it. */
  settle(messageId: string): void;
}

/**
 * Bounds how often a streaming message crosses to the UI and to other tabs: the first change at once, then at most one
 * per `intervalMs` per message. Each send is a structured clone of the whole message, so sending every delta would cost
 * the square of the reply's length.
 */
export function createProgressThrottle(send: (message: Message) => void, options: { intervalMs: number; timers: Timers }): ProgressThrottle {
  const slots = new Map<string, { timer: unknown; pending?: Message }>();

  const tick = (messageId: string) => {
    const slot = slots.get(messageId);
    if (!slot) return;
    if (!slot.pending) {
      slots.delete(messageId);
      return;
    }
    const { pending } = slot;
    delete slot.pending;
    send(pending);
    slot.timer = options.timers.setTimeout(() => tick(messageId), options.intervalMs);
  };

  return {
    push(message) {
      const slot = slots.get(message.id);
      if (slot) {
        slot.pending = message;
        return;
      }
      send(message);
      slots.set(message.id, { timer: options.timers.setTimeout(() => tick(message.id), options.intervalMs) });
    },
    settle(messageId) {
      // Only what is pending is older; the rate window stays, so persisted writes do not add sends.
      const slot = slots.get(messageId);
      if (slot) delete slot.pending;
    },
  };
}

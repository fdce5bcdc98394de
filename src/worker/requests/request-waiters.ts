import { findRequest, isPendingRequest } from '../../core/requests/requests';
import type { Block } from '../../schema/messages/blocks';
import type { Message } from '../../schema/records';

interface Waiter {
  messageId: string;
  resolve(block: Block): void;
}

/**
 * Live waits on stored requests: a running tool that asked the user (an MCP elicitation) waits here until the request
 * is resolved in IndexedDB, by this tab's command or another tab's (whose peer hint makes this worker re-read the
 * message). The stored block is the truth; this only wakes the waiting tool.
 */
export class RequestWaiters {
  private readonly waiters = new Map<string, Waiter>();

  wait(messageId: string, requestId: string, signal: AbortSignal): Promise<Block> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.waiters.delete(requestId);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(requestId, {
        messageId,
        resolve: (block) => {
          signal.removeEventListener('abort', onAbort);
          this.waiters.delete(requestId);
          resolve(block);
        },
      });
    });
  }

  /** A stored message changed: wake whoever waits on a request of it that is now resolved. */
  notify(message: Message): void {
    for (const [requestId, waiter] of this.waiters) {
      if (waiter.messageId !== message.id) continue;
      const block = findRequest(message, requestId);
      if (block && !isPendingRequest(block)) waiter.resolve(block);
    }
  }
}

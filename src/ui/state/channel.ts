import { batch } from 'solid-js';
import type { CommandOf, CommandResult, CommandType } from '../../schema/commands';
import type { AppEvent } from '../../schema/events';
import type { CommandEnvelope, WorkerMessage } from '../../schema/protocol';
import { WireError } from '../../schema/wire-error';
import { WORKER_RESTARTED, type MessagePortLike } from './worker-port';

/** The UI's only way to reach the worker. */
export interface WorkerClient {
  /** Sends one command; resolves with its reply's result or rejects with a rebuilt WireError. */
  send<T extends CommandType>(command: CommandOf<T>, options?: SendOptions): Promise<CommandResult<T>>;
  /** Subscribes to worker events; returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
}

/** How a caller takes a command's failure. */
export interface SendOptions {
  /** The caller says a failure beside its own control (or in its status): it is not reported again as a toast. */
  showsErrors?: boolean;
}

interface WorkerClientOptions {
  /** Schedules one flush of queued events; defaults to the next animation frame, else a microtask. */
  scheduleFlush?: (flush: () => void) => void;
}

interface PendingReply {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * Creates the typed client over a port. Events are queued and delivered once per flush (one animation
 * frame), inside one Solid batch, so a streaming reply costs at most one UI update per frame. A reply
 * first delivers the events queued before it, so a caller never sees its result ahead of older events.
 */
export function createWorkerClient(port: MessagePortLike, options: WorkerClientOptions = {}): WorkerClient {
  const pendingReplies = new Map<string, PendingReply>();
  const events = createEventQueue(options.scheduleFlush ?? defaultScheduleFlush);
  const queueEvent = events.queue;
  const flushEvents = events.flush;

  function settleReply(message: Extract<WorkerMessage, { kind: 'reply' }>): void {
    const pending = pendingReplies.get(message.id);
    if (!pending) return;
    pendingReplies.delete(message.id);
    flushEvents();
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new WireError(message.error));
  }

  let ready = false;
  let broken: WireError | undefined;

  port.addEventListener('message', (messageEvent: MessageEvent) => {
    const message = messageEvent.data as WorkerMessage | { kind: typeof WORKER_RESTARTED } | undefined;
    if (!message || typeof message !== 'object') return;
    if (message.kind === WORKER_RESTARTED) {
      // The old worker died with these commands unanswered; the new one never saw them.
      const lost = new WireError({ code: 'internal', message: "Parley's background worker stopped and was restarted before it could answer. Try again." });
      for (const pending of pendingReplies.values()) pending.reject(lost);
      pendingReplies.clear();
      ready = false;
      broken = undefined;
      queueEvent({ type: 'worker-restarted' });
    } else if (message.kind === 'reply') {
      settleReply(message);
    } else if (message.kind === 'event') {
      if (message.event.type === 'worker-ready') ready = true;
      queueEvent(message.event);
    }
  });
  // A worker that fails to load would leave every command waiting forever: fail them, and say so on screen.
  port.addEventListener('error', (event) => {
    const detail = (event as ErrorEvent).message ?? '';
    if (ready) {
      queueEvent({ type: 'storage-error', message: `Parley's background worker hit an error${detail ? ` (${detail})` : ''}. Reload the page if something seems stuck.` });
      return;
    }
    broken = new WireError({ code: 'internal', message: `Parley's background worker could not start${detail ? ` (${detail})` : ''}. Reload the page.` });
    for (const pending of pendingReplies.values()) pending.reject(broken);
    pendingReplies.clear();
    queueEvent({ type: 'storage-error', message: broken.message });
  });
  // A MessagePort only delivers after start(); a Worker has no start and always delivers.
  (port as { start?: () => void }).start?.();

  return {
    send<T extends CommandType>(command: CommandOf<T>): Promise<CommandResult<T>> {
      if (broken) return Promise.reject(broken);
      const envelope: CommandEnvelope = { kind: 'command', id: crypto.randomUUID(), command };
      return new Promise<CommandResult<T>>((resolve, reject) => {
        pendingReplies.set(envelope.id, { resolve: resolve as (result: unknown) => void, reject });
        port.postMessage(envelope);
      });
    },
    onEvent: events.listen,
  };
}

/** Events queued and delivered once per flush, inside one Solid batch; `flush` delivers what waits now. */
function createEventQueue(scheduleFlush: (flush: () => void) => void) {
  const listeners = new Set<(event: AppEvent) => void>();
  let queued: AppEvent[] = [];
  let flushScheduled = false;

  function flush(): void {
    flushScheduled = false;
    if (queued.length === 0) return;
    const events = queued;
    queued = [];
    batch(() => {
      for (const event of events) {
        for (const listener of [...listeners]) {
          try {
            listener(event);
          } catch (error) {
            // One broken listener must not starve the others of later events.
            console.error('Parley: event listener failed', error);
          }
        }
      }
    });
  }

  function queue(event: AppEvent): void {
    queued.push(event);
    if (flushScheduled) return;
    flushScheduled = true;
    scheduleFlush(flush);
  }

  function listen(listener: (event: AppEvent) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  return { queue, flush, listen };
}

function defaultScheduleFlush(flush: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    queueMicrotask(flush);
    return;
  }
  let flushed = false;
  const runOnce = () => {
    if (flushed) return;
    flushed = true;
    flush();
  };
  requestAnimationFrame(runOnce);
  // A hidden tab runs no frames, yet its store must still learn of a waiting question (title badge).
  setTimeout(runOnce, 100);
}

import { WORKER_RESTARTED, type MessagePortLike } from './worker-port';

/** The part of a Worker the supervisor drives. */
export interface WorkerLike extends MessagePortLike {
  terminate(): void;
}

interface SupervisorOptions {
  /** How often the worker is asked whether it is alive. */
  pingIntervalMs?: number;
  /** A ping unanswered this long, while the page is visible, means the worker is dead. */
  pingTimeoutMs?: number;
  /** Hidden pages run timers late; only a visible page judges the worker. */
  isVisible?: () => boolean;
  timers?: { setInterval(callback: () => void, ms: number): unknown; now(): number };
  /** A worker that cannot even start would be restarted forever: give up after this many restarts. */
  maxRestarts?: number;
}

/**
 * One stable port over a worker that may die (out of memory, a crash, `close()`): a worker that stops answering pings
 * is terminated and a new one started; listeners carry over, and they get a `{ kind: 'worker-restarted' }` message. Safe
 * because every state is in IndexedDB: the new worker marks a run that died with the old one as interrupted.
 */
export function superviseWorker(create: () => WorkerLike, options: SupervisorOptions = {}): MessagePortLike {
  const pingIntervalMs = options.pingIntervalMs ?? 3000;
  const pingTimeoutMs = options.pingTimeoutMs ?? 10_000;
  const isVisible = options.isVisible ?? (() => typeof document === 'undefined' || document.visibilityState === 'visible');
  const timers = options.timers ?? { setInterval: (callback, ms) => setInterval(callback, ms), now: () => Date.now() };
  const messages = keptUntilListened<MessageEvent>();
  const errors = keptUntilListened<Event>();
  let outstanding: { id: number; sentAt: number } | undefined;
  let nextPing = 1;
  let restarts = 0;
  let current = start();

  function start(): WorkerLike {
    const worker = create();
    worker.addEventListener('message', (event: MessageEvent) => {
      if (worker !== current) return; // a late word from a worker already replaced
      const data = event.data as { kind?: unknown; id?: unknown } | null;
      if (data?.kind === 'pong') {
        if (outstanding?.id === data.id) outstanding = undefined;
        return;
      }
      messages.deliver(event);
    });
    worker.addEventListener('error', (event: Event) => {
      if (worker !== current) return;
      errors.deliver(event);
    });
    return worker;
  }

  function restart(): void {
    current.terminate();
    outstanding = undefined;
    current = start();
    messages.deliver(new MessageEvent('message', { data: { kind: WORKER_RESTARTED } }));
  }

  timers.setInterval(() => {
    if (!isVisible()) {
      outstanding = undefined; // judged again once visible, from a fresh ping
      return;
    }
    if (outstanding) {
      if (timers.now() - outstanding.sentAt < pingTimeoutMs || restarts >= (options.maxRestarts ?? 5)) return;
      restarts += 1;
      restart();
      return;
    }
    outstanding = { id: nextPing++, sentAt: timers.now() };
    current.postMessage({ kind: 'ping', id: outstanding.id });
  }, pingIntervalMs);

  return {
    postMessage: (message) => current.postMessage(message),
    addEventListener(type: 'message' | 'error', listener: ((event: MessageEvent) => void) & ((event: Event) => void)) {
      if (type === 'message') messages.listen(listener);
      else errors.listen(listener);
    },
  } as MessagePortLike;
}

/**
 * Listeners of one kind of event. The worker starts before the app's code has loaded (src/boot.ts): what it says before
 * anyone listens is kept for the first listener (a failed start or an "app-outdated" must not be lost).
 */
function keptUntilListened<E>() {
  const listeners = new Set<(event: E) => void>();
  let kept: E[] = [];
  return {
    listen(listener: (event: E) => void): void {
      listeners.add(listener);
      const early = kept;
      kept = [];
      for (const event of early) listener(event);
    },
    deliver(event: E): void {
      if (listeners.size === 0) kept.push(event);
      for (const listener of [...listeners]) listener(event);
    },
  };
}

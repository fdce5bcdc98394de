/** How long a model step waits for a file still on its way here, after the last chunk of it arrived (or the wait began). */
export const ARRIVAL_IDLE_MS = 15_000;

interface Waiter {
  /** A chunk of the file arrived: the wait goes on. */
  chunk(): void;
  /** The file is stored here, or the step was stopped: the wait ends. */
  end(): void;
}

/**
 * Files another device sent that a model step here needs before their bytes are stored (docs/architecture.md, "Sync":
 * after "Continue on this device" the step can come before the file). The step waits while the file's chunks keep
 * coming and gives up after `idleMs` without one: a sender closed midway may not come back soon. A file given up is not
 * waited for again (the run's next steps go on at once) until a chunk of it arrives.
 */
export class FileArrivals {
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Files stored here since the engine started: a wait that begins after the store ends at once. */
  private readonly stored = new Set<string>();
  private readonly givenUp = new Set<string>();

  constructor(private readonly idleMs = ARRIVAL_IDLE_MS) {}

  /** Waits until the file is stored here, `idleMs` pass without a chunk of it, or `signal` aborts. */
  wait(attachmentId: string, signal?: AbortSignal): Promise<void> {
    if (this.stored.has(attachmentId) || this.givenUp.has(attachmentId) || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waiters = this.waiters.get(attachmentId) ?? new Set<Waiter>();
      this.waiters.set(attachmentId, waiters);
      const finish = (gaveUp: boolean) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        if (waiters.size === 0 && this.waiters.get(attachmentId) === waiters) this.waiters.delete(attachmentId);
        signal?.removeEventListener('abort', abort);
        if (gaveUp) this.givenUp.add(attachmentId);
        resolve();
      };
      const waiter: Waiter = {
        chunk: () => {
          clearTimeout(timer);
          timer = setTimeout(() => finish(true), this.idleMs);
        },
        end: () => finish(false),
      };
      const abort = () => waiter.end();
      waiters.add(waiter);
      signal?.addEventListener('abort', abort, { once: true });
      waiter.chunk();
    });
  }

  /** A chunk of a file arrived. */
  chunk(attachmentId: string): void {
    this.givenUp.delete(attachmentId);
    for (const waiter of this.waiters.get(attachmentId) ?? []) waiter.chunk();
  }

  /** A file is stored here now. */
  here(attachmentId: string): void {
    this.stored.add(attachmentId);
    this.givenUp.delete(attachmentId);
    this.end(attachmentId);
  }

  /** Ends the waits for a file without giving it up: it came whole but could not be stored (a full disk). */
  end(attachmentId: string): void {
    for (const waiter of [...(this.waiters.get(attachmentId) ?? [])]) waiter.end();
  }

  /** The engine stopped: no file will arrive through it. */
  stop(): void {
    for (const waiters of [...this.waiters.values()]) for (const waiter of [...waiters]) waiter.end();
  }
}

import { VIEW_LOCK_PREFIX } from '../../schema/limits';

/** Exclusive named locks. Release by calling the returned function. */
export interface Locks {
  /** The lock, or null at once when someone else holds it. */
  tryAcquire(name: string): Promise<(() => void) | null>;
  /** Waits for the lock. */
  acquire(name: string): Promise<() => void>;
  /** The names of the locks held now, by anyone (this origin's tabs and workers). */
  heldNames(): Promise<ReadonlySet<string>>;
}

/** Web Locks: shared by every tab and worker of this origin, released by the browser when a holder dies. */
export function webLocks(locks: LockManager): Locks {
  const request = (name: string, ifAvailable: boolean) =>
    new Promise<(() => void) | null>((resolve, reject) => {
      locks
        .request(name, { ifAvailable }, (lock) => {
          if (!lock) {
            resolve(null);
            return undefined;
          }
          return new Promise<void>((release) => resolve(() => release()));
        })
        .catch(reject);
    });
  return {
    tryAcquire: (name) => request(name, true),
    acquire: async (name) => (await request(name, false))!,
    heldNames: async () => new Set(((await locks.query()).held ?? []).flatMap((lock) => (lock.name === undefined ? [] : [lock.name]))),
  };
}

/** In-memory locks with the same contract, for node tests (share one instance between simulated tabs). */
export function memoryLocks(): Locks {
  const queues = new Map<string, Array<() => void>>();
  const held = new Set<string>();
  const releaser = (name: string) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queues.get(name)?.shift();
      if (next) next();
      else held.delete(name);
    };
  };
  return {
    async tryAcquire(name) {
      if (held.has(name)) return null;
      held.add(name);
      return releaser(name);
    },
    heldNames: async () => new Set(held),
    acquire(name) {
      if (!held.has(name)) {
        held.add(name);
        return Promise.resolve(releaser(name));
      }
      return new Promise((resolve) => {
        const queue = queues.get(name) ?? [];
        queue.push(() => resolve(releaser(name)));
        queues.set(name, queue);
      });
    },
  };
}

export function runLockName(conversationId: string): string {
  return `parley-run:${conversationId}`;
}

/** The conversations some tab has on screen (their view locks, see VIEW_LOCK_PREFIX): never discarded as unused. */
export async function viewedConversations(locks: Locks): Promise<ReadonlySet<string>> {
  return new Set([...(await locks.heldNames())].flatMap((name) => (name.startsWith(VIEW_LOCK_PREFIX) ? [name.slice(VIEW_LOCK_PREFIX.length)] : [])));
}

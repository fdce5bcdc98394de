// The status Settings shows for sync ("Syncing 120 of 3,400", "Synced", "Offline"), read from PouchDB's replication
// events. It uses PouchDB's types only, so it loads (and is tested) without PouchDB.
import type { Database, PouchError } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

/** What the replication is doing, for the status in Settings. */
export type ReplicationState =
  | { state: 'syncing'; done: number; total?: number }
  | { state: 'synced' }
  | { state: 'offline' }
  | { state: 'error'; reason: 'unauthorized' | 'server_full' | 'server_error' };

/** What a failed replication request means for the status: refused credentials, a full server, or `otherwise`. */
export function stateOfError(error: PouchError, otherwise: 'offline' | 'server_error'): ReplicationState {
  const status = error.status;
  if (status === 401 || status === 403) return { state: 'error', reason: 'unauthorized' };
  if (status === 413 || status === 507) return { state: 'error', reason: 'server_full' };
  return otherwise === 'offline' ? { state: 'offline' } : { state: 'error', reason: 'server_error' };
}

/**
 * Whether what replication brought into the mirror is in Parley's own store yet. Replication pauses as soon as the
 * documents are in the mirror, and the engine applies them after (in batches, with the records' transactions), so
 * "Synced" waits until every change the mirror handed on is applied: a device that said "Synced" holds what it received.
 */
export function appliedTracker() {
  let unapplied = 0;
  let onIdle: (() => void) | undefined;
  return {
    get idle() {
      return unapplied === 0;
    },
    handed(count: number) {
      unapplied += count;
    },
    applied(count: number) {
      unapplied = Math.max(0, unapplied - count);
      if (unapplied === 0) onIdle?.();
    },
    whenIdle(callback: (() => void) | undefined) {
      onIdle = callback;
    },
  };
}

/** The status once both directions have paused: an error if one paused on it, else Synced once all is applied here. */
export function pausedState(error: PouchError | undefined, applied: boolean): ReplicationState {
  if (error) return stateOfError(error, 'offline');
  return applied ? { state: 'synced' } : { state: 'syncing', done: 0 };
}

/**
 * "Syncing 120 of 3,400": documents moved since both directions were last idle, of those there are to move. CouchDB 2+
 * says how many changes remain (`pending`); a server that does not (pouchdb-server, CouchDB 1) is asked how many
 * documents each side holds, so an initial sync (one side empty) still shows how far it has got. Without either, the
 * total is left out ("Syncing…").
 */
export function replicationProgress(local: Database<EncryptedDocument>, remote: Database<EncryptedDocument>, onState: (state: ReplicationState) => void, countAfterMs: number): ReplicationProgress {
  return new ReplicationProgress(local, remote, onState, countAfterMs);
}

type Direction = 'push' | 'pull';

class ReplicationProgress {
  /** `docs_written` as last reported (it counts from the replication's start), and what this round wrote. */
  private readonly cumulative = { push: 0, pull: 0 };
  private readonly written = { push: 0, pull: 0 };
  private readonly remaining: Record<Direction, number | undefined> = { push: undefined, pull: undefined };
  private readonly serverSays: Record<Direction, boolean> = { push: false, pull: false };
  private counting = false;
  private recountAgain = false;
  /** Grows when both directions go idle: a count begun in an earlier round is not reported after "Synced". */
  private round = 0;
  private roundStartedAt: number | undefined;
  private countedAt = 0;
  private countTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly local: Database<EncryptedDocument>,
    private readonly remote: Database<EncryptedDocument>,
    private readonly onState: (state: ReplicationState) => void,
    private readonly countAfterMs: number,
  ) {}

  batch(direction: Direction, change: { docs_written: number; pending?: number }): void {
    const moved = Math.max(0, change.docs_written - this.cumulative[direction]);
    this.written[direction] += moved;
    this.cumulative[direction] = change.docs_written;
    if (typeof change.pending === 'number') {
      this.serverSays[direction] = true;
      this.remaining[direction] = change.pending;
    } else {
      // What this batch moved is no longer left to move, until the next count says more precisely.
      const left = this.remaining[direction];
      if (left !== undefined) this.remaining[direction] = Math.max(0, left - moved);
      this.countIfLong();
    }
    this.report();
  }

  /** A direction went active: say so now, with a total once the counts are in. */
  active(): void {
    this.report();
    if (this.roundStartedAt !== undefined) return;
    this.roundStartedAt = Date.now();
    this.countTimer = setTimeout(() => this.countIfLong(), this.countAfterMs);
  }

  /** The replication was cancelled: nothing more is reported. */
  stop(): void {
    this.round += 1;
    this.roundStartedAt = Number.POSITIVE_INFINITY;
    clearTimeout(this.countTimer);
  }

  /** Both directions idle: the next round counts from zero. */
  roundOver(): void {
    this.round += 1;
    this.roundStartedAt = undefined;
    clearTimeout(this.countTimer);
    this.written.push = 0;
    this.written.pull = 0;
    this.remaining.push = undefined;
    this.remaining.pull = undefined;
  }

  private countIfLong(): void {
    const now = Date.now();
    if (this.roundStartedAt !== undefined && now - this.roundStartedAt >= this.countAfterMs && now - this.countedAt >= this.countAfterMs) {
      this.countedAt = now;
      void this.recount();
    }
  }

  private report(): void {
    const done = this.written.push + this.written.pull;
    const left = (this.remaining.push ?? 0) + (this.remaining.pull ?? 0);
    this.onState({ state: 'syncing', done, ...(left > 0 ? { total: done + left } : {}) });
  }

  private async recount(): Promise<void> {
    if (this.counting) {
      this.recountAgain = true;
      return;
    }
    this.counting = true;
    const started = this.round;
    try {
      const [here, there] = await Promise.all([this.local.info(), this.remote.info()]);
      if (started !== this.round) return;
      if (!this.serverSays.pull) this.remaining.pull = Math.max(0, there.doc_count - here.doc_count);
      if (!this.serverSays.push) this.remaining.push = Math.max(0, here.doc_count - there.doc_count);
      this.report();
    } catch {
      // The counts are a nicety: the status stays "Syncing…" without them.
    } finally {
      this.counting = false;
      if (this.recountAgain) {
        this.recountAgain = false;
        void this.recount();
      }
    }
  }
}

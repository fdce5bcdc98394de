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
export function replicationProgress(local: Database<EncryptedDocument>, remote: Database<EncryptedDocument>, onState: (state: ReplicationState) => void, countAfterMs: number) {
  const directions = ['push', 'pull'] as const;
  type Direction = (typeof directions)[number];
  /** `docs_written` as last reported (it counts from the replication's start), and what this round wrote. */
  const cumulative = { push: 0, pull: 0 };
  const written = { push: 0, pull: 0 };
  const remaining: Record<Direction, number | undefined> = { push: undefined, pull: undefined };
  const serverSays: Record<Direction, boolean> = { push: false, pull: false };
  let counting = false;
  let recountAgain = false;
  /** Grows when both directions go idle: a count begun in an earlier round is not reported after "Synced". */
  let round = 0;
  let roundStartedAt: number | undefined;
  let countedAt = 0;
  let countTimer: ReturnType<typeof setTimeout> | undefined;
  const countIfLong = () => {
    const now = Date.now();
    if (roundStartedAt !== undefined && now - roundStartedAt >= countAfterMs && now - countedAt >= countAfterMs) {
      countedAt = now;
      void recount();
    }
  };

  const report = () => {
    const done = written.push + written.pull;
    const left = (remaining.push ?? 0) + (remaining.pull ?? 0);
    onState({ state: 'syncing', done, ...(left > 0 ? { total: done + left } : {}) });
  };
  const recount = async () => {
    if (counting) {
      recountAgain = true;
      return;
    }
    counting = true;
    const started = round;
    try {
      const [here, there] = await Promise.all([local.info(), remote.info()]);
      if (started !== round) return;
      if (!serverSays.pull) remaining.pull = Math.max(0, there.doc_count - here.doc_count);
      if (!serverSays.push) remaining.push = Math.max(0, here.doc_count - there.doc_count);
      report();
    } catch {
      // The counts are a nicety: the status stays "Syncing…" without them.
    } finally {
      counting = false;
      if (recountAgain) {
        recountAgain = false;
        void recount();
      }
    }
  };
  return {
    batch(direction: Direction, change: { docs_written: number; pending?: number }) {
      const moved = Math.max(0, change.docs_written - cumulative[direction]);
      written[direction] += moved;
      cumulative[direction] = change.docs_written;
      if (typeof change.pending === 'number') {
        serverSays[direction] = true;
        remaining[direction] = change.pending;
      } else {
        // What this batch moved is no longer left to move, until the next count says more precisely.
        if (remaining[direction] !== undefined) remaining[direction] = Math.max(0, remaining[direction] - moved);
        countIfLong();
      }
      report();
    },
    /** A direction went active: say so now, with a total once the counts are in. */
    active() {
      report();
      if (roundStartedAt !== undefined) return;
      roundStartedAt = Date.now();
      countTimer = setTimeout(countIfLong, countAfterMs);
    },
    /** The replication was cancelled: nothing more is reported. */
    stop() {
      round += 1;
      roundStartedAt = Number.POSITIVE_INFINITY;
      clearTimeout(countTimer);
    },
    /** Both directions idle: the next round counts from zero. */
    roundOver() {
      round += 1;
      roundStartedAt = undefined;
      clearTimeout(countTimer);
      written.push = 0;
      written.pull = 0;
      remaining.push = undefined;
      remaining.pull = undefined;
    },
  };
}

import PouchDB, { type Database, type PouchError } from 'pouchdb-browser';
import type { EncryptedDocument, Mirror, MirrorChange } from './mirror';

/** What the replication is doing, for the status in Settings. */
export type ReplicationState =
  | { state: 'syncing'; done: number; total?: number }
  | { state: 'synced' }
  | { state: 'offline' }
  | { state: 'error'; reason: 'unauthorized' | 'server_full' | 'server_error' };

export interface PouchMirror extends Mirror {
  /** Starts live two-way replication with the server; `onState` hears what it is doing. */
  replicate(onState: (state: ReplicationState) => void): void;
  close(): Promise<void>;
  /** Removes this device's copy of the encrypted documents (turning sync off). */
  destroy(): Promise<void>;
}

export interface RemoteAccess {
  url: string;
  username: string;
  password: string;
}

/** The server database, with Basic credentials added to each request (PouchDB's `fetch` option). */
export function remoteDatabase(access: RemoteAccess): Database<EncryptedDocument> {
  const authorization = access.username || access.password ? `Basic ${btoa(unescape(encodeURIComponent(`${access.username}:${access.password}`)))}` : undefined;
  return new PouchDB<EncryptedDocument>(access.url, {
    skip_setup: true,
    fetch: (url: string | Request, options?: RequestInit) => {
      const headers = new Headers(options?.headers);
      if (authorization) headers.set('Authorization', authorization);
      // Credentials only ever go to the server the user named, as a header: no cookie, no other origin.
      return PouchDB.fetch(url, { ...options, headers, credentials: 'omit' });
    },
  });
}

const PAGE = 500;
/** The longest wait between two attempts to reach the server while it cannot be reached. */
const MAX_RETRY_DELAY_MS = 30_000;

/** What a failed replication request means for the status: refused credentials, a full server, or `otherwise`. */
function stateOfError(error: PouchError, otherwise: 'offline' | 'server_error'): ReplicationState {
  const status = error.status;
  if (status === 401 || status === 403) return { state: 'error', reason: 'unauthorized' };
  if (status === 413 || status === 507) return { state: 'error', reason: 'server_full' };
  return otherwise === 'offline' ? { state: 'offline' } : { state: 'error', reason: 'server_error' };
}

/**
 * "Syncing 120 of 3,400": documents moved since both directions were last idle, of those there are to move. CouchDB 2+
 * says how many changes remain (`pending`); a server that does not (pouchdb-server, CouchDB 1) is asked how many
 * documents each side holds, so an initial sync (one side empty) still shows how far it has got. Without either, the
 * total is left out ("Syncing…").
 */
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

/** Several documents of `database` in one read (`allDocs` by keys), in order; undefined when absent or deleted. */
export async function getDocuments(database: Database<EncryptedDocument>, ids: string[]): Promise<Array<EncryptedDocument | undefined>> {
  if (ids.length === 0) return [];
  const { rows } = await database.allDocs({ keys: ids, include_docs: true });
  return rows.map((row) => (row.doc && !row.value?.deleted && !row.doc._deleted ? (row.doc as EncryptedDocument) : undefined));
}

/**
 * Writes `documents` to `database` with one `bulkDocs` per attempt. A revision that arrived from the server meanwhile
 * (409) is written over with the newest revision, as `put` does, up to 3 times; any other error is that document's alone.
 * What each came to, in order: undefined when written, else its error.
 */
export async function putDocuments(database: Database<EncryptedDocument>, documents: EncryptedDocument[]): Promise<Array<Error | undefined>> {
  const errors: Array<Error | undefined> = documents.map(() => undefined);
  let pending = documents.map((document, index) => ({ document, index }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    let results: Awaited<ReturnType<Database<EncryptedDocument>['bulkDocs']>>;
    try {
      results = await database.bulkDocs(pending.map((entry) => entry.document));
    } catch (error) {
      // The whole write refused (a document PouchDB rejects before writing, IndexedDB aborting the transaction): each is
      // written alone, so that one document that cannot be written does not hold back the others.
      if (pending.length === 1) {
        errors[pending[0]!.index] = error instanceof Error ? error : new Error(String(error));
        break;
      }
      for (const entry of pending) errors[entry.index] = (await putDocuments(database, [entry.document]))[0];
      break;
    }
    const conflicts: typeof pending = [];
    pending.forEach((entry, position) => {
      const result = results[position];
      if (!result || !('error' in result) || !result.error) return;
      if (result.status === 409 && attempt < 3) conflicts.push(entry);
      else errors[entry.index] = Object.assign(new Error(result.message ?? result.name ?? 'write failed'), { status: result.status, name: result.name ?? 'Error' });
    });
    if (conflicts.length === 0) break;
    const current = await getDocuments(database, conflicts.map((entry) => entry.document._id));
    pending = conflicts.map((entry, position) => {
      const { _rev: _ignored, ...rest } = entry.document;
      const rev = current[position]?._rev;
      return { index: entry.index, document: rev ? { ...rest, _rev: rev } : rest };
    });
  }
  return errors;
}

/** A write or two (a live change) is over well within this: it costs no request for counts. */
const COUNT_AFTER_MS = 1000;

/**
 * A PouchDB database in this origin's IndexedDB that mirrors the server's, live, in both directions. `countAfterMs`: how
 * long a replication round runs before the documents left to move are counted for the status (tests count at once).
 */
export function openPouchMirror(localName: string, access: RemoteAccess, { countAfterMs = COUNT_AFTER_MS } = {}): PouchMirror {
  const local = new PouchDB<EncryptedDocument>(localName, { auto_compaction: true });
  const remote = remoteDatabase(access);
  let replication: ReturnType<Database<EncryptedDocument>['sync']> | undefined;
  let progress: ReturnType<typeof replicationProgress> | undefined;
  const followers = new Set<{ cancel(): void }>();
  const tracker = appliedTracker();

  const get = async (database: Database<EncryptedDocument>, id: string): Promise<EncryptedDocument | undefined> => {
    try {
      const document = (await database.get(id)) as EncryptedDocument;
      return document._deleted ? undefined : document;
    } catch (error) {
      if ((error as { status?: number }).status === 404) return undefined;
      throw error;
    }
  };

  return {
    get: (id) => get(local, id),
    async put(document) {
      for (let attempt = 0; ; attempt += 1) {
        try {
          await local.put(document);
          return;
        } catch (error) {
          // A revision arrived from the server meanwhile: this device is the author of what it writes, so it writes over it.
          if ((error as { status?: number }).status !== 409 || attempt >= 3) throw error;
          const current = await get(local, document._id);
          document = { ...document, ...(current?._rev ? { _rev: current._rev } : {}) };
          if (!current) delete document._rev;
        }
      }
    },
    getMany: (ids) => getDocuments(local, ids),
    putMany: (documents) => putDocuments(local, documents),
    follow(since, onChanges) {
      let cancelled = false;
      let feed: { cancel(): void } | undefined;
      let chain = Promise.resolve();
      const follower = {
        cancel() {
          cancelled = true;
          feed?.cancel();
        },
      };
      followers.add(follower);
      const toChanges = (results: Array<{ seq: string | number; doc?: EncryptedDocument }>): MirrorChange[] =>
        results.flatMap((result) => (result.doc ? [{ document: result.doc as EncryptedDocument, seq: result.seq }] : []));
      void (async () => {
        // Catch up page by page (each page applied before the next is read), then follow live from there.
        let position: string | number = since ?? 0;
        tracker.handed(1);
        try {
          for (;;) {
            if (cancelled) return;
            const page = await local.changes({ since: position, limit: PAGE, include_docs: true });
            await onChanges(toChanges(page.results));
            position = page.last_seq;
            if (page.results.length < PAGE) break;
          }
        } finally {
          tracker.applied(1);
        }
        if (cancelled) return;
        // Changes that arrive while earlier ones are applied are applied together: a replication batch (200 documents)
        // lands as a burst of single changes, and one call saves the position once, not once per document.
        let waiting: Array<{ seq: string | number; doc?: EncryptedDocument }> = [];
        feed = local.changes({ since: position, live: true, include_docs: true }).on('change', (change) => {
          waiting.push(change);
          tracker.handed(1);
          if (waiting.length > 1) return;
          chain = chain
            .then(async () => {
              const batch = waiting;
              waiting = [];
              try {
                if (!cancelled) await onChanges(toChanges(batch));
              } finally {
                tracker.applied(batch.length);
              }
            })
            .catch(() => undefined);
        });
      })();
      return follower;
    },
    remoteGet: (id) => get(remote, id),
    async remotePut(document) {
      try {
        await remote.put(document);
        return 'ok';
      } catch (error) {
        if ((error as { status?: number }).status === 409) return 'conflict';
        throw error;
      }
    },
    async getLocal(key) {
      try {
        return ((await local.get(`_local/${key}`)) as unknown as { value: unknown }).value;
      } catch {
        return undefined;
      }
    },
    async setLocal(key, value) {
      const id = `_local/${key}`;
      let rev: string | undefined;
      try {
        rev = (await local.get(id))._rev;
      } catch {
        rev = undefined;
      }
      await local.put({ _id: id, ...(rev ? { _rev: rev } : {}), value } as unknown as EncryptedDocument);
    },
    replicate(onState) {
      replication?.cancel();
      progress?.stop();
      replication = local.sync(remote, {
        live: true,
        retry: true,
        batch_size: 200,
        // PouchDB's default doubles the wait up to 10 minutes: a device back online after a long gap would sync that late.
        back_off_function: (delay: number) => (delay === 0 ? 1000 : Math.min(delay * 2, MAX_RETRY_DELAY_MS)),
      });
      progress = replicationProgress(local, remote, onState, countAfterMs);
      const current = progress;
      // The two-way Sync object re-emits 'paused' WITHOUT the error (pouchdb-browser 9, Sync's pushPaused/pullPaused), so a
      // failed request looked like "Synced". Each direction's own 'paused' carries it: a direction that paused on an error
      // (the server unreachable, or refusing) is what the status says until that direction is active again.
      const failed: { push?: PouchError; pull?: PouchError } = {};
      const paused = { push: true, pull: true };
      const report = () => {
        const error = failed.push ?? failed.pull;
        if (error || (paused.push && paused.pull)) onState(pausedState(error, tracker.idle));
      };
      // Received documents still being applied when replication paused: "Synced" is said once they are.
      tracker.whenIdle(report);
      for (const direction of ['push', 'pull'] as const) {
        replication[direction]
          .on('active', () => {
            paused[direction] = false;
            delete failed[direction];
          })
          .on('paused', (error) => {
            paused[direction] = true;
            if (error) failed[direction] = error;
            else delete failed[direction];
            if (paused.push && paused.pull) current.roundOver();
            report();
          });
      }
      replication
        .on('change', (info) => current.batch(info.direction, info.change))
        .on('active', () => current.active())
        .on('denied', () => onState({ state: 'error', reason: 'unauthorized' }))
        .on('error', (error) => onState(stateOfError(error, 'server_error')));
    },
    async close() {
      replication?.cancel();
      progress?.stop();
      tracker.whenIdle(undefined);
      for (const follower of followers) follower.cancel();
      await local.close();
    },
    async destroy() {
      replication?.cancel();
      progress?.stop();
      tracker.whenIdle(undefined);
      for (const follower of followers) follower.cancel();
      await local.destroy();
    },
  };
}

// The mirror's behaviour over two PouchDB databases (pouch-mirror.ts opens them in the browser): reads and writes,
// following the local changes, and the live replication with its status.
import type { Database, PouchError } from 'pouchdb-browser';
import { absentFirst } from './absent-first';
import { getDocuments, putNewDocuments } from './bulk-documents';
import { knownRevisions, landingFirst } from './known-revisions';
import { sendAtOnce } from './send-at-once';
import { ServerAgreement } from './server-agreement';
import { adoptFirstRevision, serverChanges } from './server-changes';
import { takeFromServer } from './server-documents';
import { getDocument, localValue, putOwn, setLocalValue } from './local-documents';
import type { EncryptedDocument, Mirror, MirrorChange } from './mirror';
import { sendWarmer } from './warm-send';
import { writeAndSend } from './write-and-send';
import { appliedTracker, pausedState, replicationProgress, stateOfError, type ReplicationState } from './replication-status';

export interface PouchMirror extends Mirror {
  /** Starts live two-way replication with the server (again: one already running is cancelled); `onState` hears it. */
  replicate(onState: (state: ReplicationState) => void): void;
  /** Stops replicating (the server is not the one this device joined: nothing goes to it or comes from it). */
  stopReplication(): void;
  /**
   * Offers the server every document this mirror holds, whatever the checkpoints say (a server that lost its data lost
   * them too, or may hold old ones): the server takes what it lacks. Resolves once it has.
   */
  uploadAll(): Promise<void>;
  /**
   * Undefined when nothing this device wrote is on its way to the server outside the replication; else resolves once it
   * has been answered (the replication, which follows behind, may pause before it, and "Synced" must wait for it).
   */
  sends(): Promise<void> | undefined;
  /** Every document the mirror holds (deleted ones left out), a page at a time. */
  documents(): AsyncIterable<EncryptedDocument[]>;
  close(): Promise<void>;
  /** Removes this device's copy of the encrypted documents (turning sync off). */
  destroy(): Promise<void>;
}

/**
 * How the mirror's local database is opened (pouch-mirror.ts; host tests add the in-memory adapter). The mirror keeps
 * the winning revision's body only (`auto_compaction`: an older body goes as its next revision is written) and the last
 * 50 revision ids of each document's history (`revs_limit`; PouchDB keeps 1,000): a streaming reply or a conversation
 * record is rewritten hundreds of times, and each write stored the whole history again. The server keeps its long
 * histories, and what a device pulls carries them, so a revision that arrives still finds its parent here. Only a
 * device that wrote more than 50 revisions of one document without pushing any (a long reply streamed offline) pushes
 * one whose history no longer reaches the server's: the server keeps both, and the longer history, this device's
 * newest, wins on every device, as it would have.
 */
export const MIRROR_DATABASE_OPTIONS = { auto_compaction: true, revs_limit: 50 } as const;

const PAGE = 500;
/** The longest wait between two attempts to reach the server while it cannot be reached. */
const MAX_RETRY_DELAY_MS = 30_000;

/** A write or two (a live change) is over well within this: it costs no request for counts. */
const COUNT_AFTER_MS = 1000;

/**
 * `local` mirroring `remote`, live, in both directions (in the browser, a PouchDB database in this origin's IndexedDB and
 * the server's; any two PouchDB databases will do, so host tests run it over PouchDB's in-memory adapter against
 * pouchdb-server). `countAfterMs`: how long a replication round runs before the documents left to move are counted for
 * the status (tests count at once).
 */
export function mirrorOver(local: Database<EncryptedDocument>, remote: Database<EncryptedDocument>, { countAfterMs = COUNT_AFTER_MS } = {}): PouchMirror {
  void absentFirst(local);
  let replication: Replication | undefined;
  const followers = new Set<{ cancel(): void }>();
  const tracker = appliedTracker();
  const agreement = new ServerAgreement((id, rev) => known.holdsRevision(id, rev));
  const atOnce = sendAtOnce(remote, (id, rev) => agreement.onServer(id, rev));
  const known = knownRevisions(local, remote, atOnce, agreement);
  agreement.observePull(remote);
  void local.info().then((info) => agreement.opened(Number(info.update_seq) === 0), () => undefined);
  const landing = landingFirst(local);
  const localRevisions = new Map<string, string>();
  const stop = () => {
    replication?.cancel();
    replication = undefined;
  };
  const closing = () => {
    stop();
    tracker.whenIdle(undefined);
    for (const follower of followers) follower.cancel();
  };

  const putMany = writeAndSend(local, { atOnce, known, landing }, () => replication !== undefined);
  const warm = sendWarmer(remote);

  return {
    get: (id) => getDocument(local, id),
    put(document) {
      agreement.lostTrack();
      return putOwn(local, document);
    },
    getMany: (ids) => getDocuments(local, ids),
    putMany,
    // Only to the server this device joined (replicating), as putMany's sending at once.
    putNew: (documents) => putNewDocuments(local, replication ? remote : undefined, documents, { sent: (id, rev) => agreement.onServer(id, rev), written: known.written }),
    takeFromServer: (ids, onDocuments) => (replication ? takeFromServer(local, remote, ids, onDocuments, landing) : { cancel() {} }),
    follow(since, onChanges) {
      const follower = followChanges(local, tracker, since, onChanges);
      followers.add(follower);
      return follower;
    },
    remoteGet: (id) => getDocument(remote, id),
    remotePut: (document) => putToServer(remote, document),
    // Only the server this device joined is heard (replicating): another one's documents never enter the mirror so.
    hearServer: (onDocument, onEnd) => serverChanges(remote, (document) => replication && onDocument(document), onEnd),
    async adopt(document) {
      const stored = await adoptFirstRevision(local, document);
      // The server holds it: the write over it (the proposal's outcome) can be sent at once.
      if (stored) known.moved(document._id, document._rev!);
      return stored;
    },
    warmSend: () => replication && warm(),
    getLocal: (key) => localValue(local, key),
    setLocal: (key, value) => setLocalValue(local, localRevisions, key, value),
    replicate(onState) {
      stop();
      replication = startReplication(local, remote, tracker, onState, { countAfterMs, moved: known.moved, agreement }, () => replication);
    },
    stopReplication: stop,
    sends: () => (atOnce.busy ? atOnce.sent() : undefined),
    async uploadAll() {
      // What the server held before it lost its data is offered again, not taken as held.
      atOnce.forget();
      agreement.lostTrack();
      await local.replicate.to(remote, { checkpoint: false, batch_size: 200 });
    },
    documents: () => allDocuments(local),
    async close() {
      closing();
      await local.close();
    },
    async destroy() {
      closing();
      await local.destroy();
    },
  };
}

type Tracker = ReturnType<typeof appliedTracker>;

/** A document put on the server as it is: 'conflict' when the server holds another revision of it. */
async function putToServer(remote: Database<EncryptedDocument>, document: EncryptedDocument): Promise<'ok' | 'conflict'> {
  try {
    await remote.put(document);
    return 'ok';
  } catch (error) {
    if ((error as { status?: number }).status === 409) return 'conflict';
    throw error;
  }
}

/** A running two-way replication and the progress it reports; cancelled together. */
interface Replication {
  cancel(): void;
}

async function* allDocuments(local: Database<EncryptedDocument>): AsyncGenerator<EncryptedDocument[]> {
  let after: string | undefined;
  for (;;) {
    const page = await local.allDocs({ include_docs: true, limit: PAGE, ...(after === undefined ? {} : { startkey: after, skip: 1 }) });
    const documents = page.rows.flatMap((row) => (row.doc && !row.doc._deleted && !row.id.startsWith('_design/') ? [row.doc as EncryptedDocument] : []));
    if (documents.length > 0) yield documents;
    if (page.rows.length < PAGE) return;
    after = page.rows.at(-1)!.id;
  }
}

type ChangeResult = { seq: string | number; doc?: EncryptedDocument };

function toChanges(results: ChangeResult[]): MirrorChange[] {
  return results.flatMap((result) => (result.doc ? [{ document: result.doc as EncryptedDocument, seq: result.seq }] : []));
}

/** Hands the mirror's changes since `since` to `onChanges`: page by page to catch up, then live. */
function followChanges(local: Database<EncryptedDocument>, tracker: Tracker, since: string | number | undefined, onChanges: (changes: MirrorChange[]) => Promise<void>): { cancel(): void } {
  let cancelled = false;
  let feed: { cancel(): void } | undefined;
  let chain = Promise.resolve();
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
    let waiting: ChangeResult[] = [];
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
  return {
    cancel() {
      cancelled = true;
      feed?.cancel();
    },
  };
}

/**
 * Starts the live two-way replication and reports its state. `current()` is the mirror's replication now: what a
 * cancelled one still emits (it was started again when the network came back) is not this one's news.
 */
function startReplication(
  local: Database<EncryptedDocument>,
  remote: Database<EncryptedDocument>,
  tracker: Tracker,
  onState: (state: ReplicationState) => void,
  { countAfterMs, moved, agreement }: { countAfterMs: number; moved: (id: string, rev: string) => void; agreement: ServerAgreement },
  current: () => Replication | undefined,
): Replication {
  agreement.replicationStarted();
  const sync = local.sync(remote, {
    live: true,
    retry: true,
    batch_size: 200,
    // PouchDB's default doubles the wait up to 10 minutes: a device back online after a long gap would sync that late.
    back_off_function: (delay: number) => (delay === 0 ? 1000 : Math.min(delay * 2, MAX_RETRY_DELAY_MS)),
    // Each direction's checkpoint is kept on the server only: kept on both sides, every batch either way cost the
    // device two more IndexedDB transactions (a read and a write of its local copy). A mirror that is new or lost its
    // data has another id, so another checkpoint; a server that lost its data lost the checkpoints with it, and both
    // directions start over (and ServerWatch offers it everything).
    push: { checkpoint: 'target' },
    pull: { checkpoint: 'source' },
  });
  const progress = replicationProgress(local, remote, onState, countAfterMs);
  const replication: Replication = {
    cancel() {
      sync.cancel();
      progress.stop();
    },
  };
  const isCurrent = () => current() === replication;
  // The two-way Sync object re-emits 'paused' WITHOUT the error (pouchdb-browser 9, Sync's pushPaused/pullPaused), so a
  // failed request looked like "Synced". Each direction's own 'paused' carries it: a direction that paused on an error
  // (the server unreachable, or refusing) is what the status says until that direction is active again.
  const failed: { push?: PouchError; pull?: PouchError } = {};
  const paused = { push: true, pull: true };
  // Synced as soon as the server's answers say the two agree, not after the checkpoints of the batches that moved them.
  const reportAgreement = agreement.sayWhenAgreed({ applied: () => tracker.idle, failing: () => Boolean(failed.push ?? failed.pull), onState: (state) => isCurrent() && onState(state) });
  const report = () => {
    if (!isCurrent()) return;
    const error = failed.push ?? failed.pull;
    if (error || (paused.push && paused.pull)) onState(pausedState(error, tracker.idle));
    else reportAgreement();
  };
  // Received documents still being applied when replication paused: "Synced" is said once they are.
  tracker.whenIdle(report);
  for (const direction of ['push', 'pull'] as const) {
    sync[direction]
      .on('active', () => {
        paused[direction] = false;
        delete failed[direction];
      })
      .on('paused', (error) => {
        paused[direction] = true;
        if (error) failed[direction] = error;
        else delete failed[direction];
        if (!error) agreement.paused(direction);
        if (paused.push && paused.pull && isCurrent()) progress.roundOver();
        report();
      });
  }
  sync
    .on('change', (info) => {
      // What the replication moved either way, the server holds: a later revision of it can be sent at once.
      for (const document of info.change.docs ?? []) if (document._rev) moved(document._id, document._rev);
      if (isCurrent()) progress.batch(info.direction, info.change);
    })
    .on('active', () => isCurrent() && progress.active())
    .on('denied', () => isCurrent() && onState({ state: 'error', reason: 'unauthorized' }))
    .on('error', (error) => isCurrent() && onState(stateOfError(error, 'server_error')));
  return replication;
}

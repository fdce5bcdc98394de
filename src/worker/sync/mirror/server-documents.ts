// Documents taken from the server itself rather than through the live replication: a file's chunks another device is
// sending, which the replication would pull in batches of what the server held at each of its rounds.
import type { Database } from 'pouchdb-browser';
import { getDocuments } from './bulk-documents';
import type { EncryptedDocument } from './mirror';

/** The longest the replication's question about documents being taken waits for them (then it pulls them itself). */
const LANDING_WAIT_MS = 5000;

/**
 * Documents being taken from the server, until each is in the mirror or given up. The live replication, woken by the
 * same writes on the server, asks the mirror which of them it lacks (`revsDiff`) before the taking has written them,
 * and pulled each chunk a second time: its question waits for them first (`before`).
 */
export class Landing {
  private readonly waiting = new Map<string, { done: Promise<void>; resolve: () => void }>();

  expect(id: string): void {
    if (this.waiting.has(id)) return;
    let resolve!: () => void;
    const done = new Promise<void>((resolved) => (resolve = resolved));
    this.waiting.set(id, { done, resolve });
  }

  /** The document is in the mirror, or will not be taken. */
  landed(id: string): void {
    this.waiting.get(id)?.resolve();
    this.waiting.delete(id);
  }

  /** Waits until those of `ids` being taken are in the mirror or given up, at most `LANDING_WAIT_MS`. */
  async before(ids: string[]): Promise<void> {
    const waits = ids.flatMap((id) => this.waiting.get(id)?.done ?? []);
    if (waits.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(waits), new Promise((resolve) => (timer = setTimeout(resolve, LANDING_WAIT_MS)))]);
    clearTimeout(timer);
  }
}

/**
 * `takeFromServer` (mirror.ts) over two PouchDB databases: the server's sequence is read first, then the documents it
 * holds (one `_all_docs` by keys), then its changes since that sequence filtered to the ids still wanted (a `_doc_ids`
 * longpoll), so none written in between is missed. Each document is handed on once and written to `local` with its
 * revision (`new_edits: false`), `landing` told when it is there. Failures end the taking quietly: the replication
 * still brings everything.
 */
export function takeFromServer(local: Database<EncryptedDocument>, remote: Database<EncryptedDocument>, ids: string[], onDocuments: (documents: EncryptedDocument[]) => void, landing = new Landing()): { cancel(): void } {
  const wanted = new Set(ids);
  for (const id of ids) landing.expect(id);
  let cancelled = false;
  let feed: { cancel(): void } | undefined;
  const giveUp = () => {
    cancelled = true;
    feed?.cancel();
    for (const id of wanted) landing.landed(id);
  };
  const take = (documents: Array<EncryptedDocument | undefined>) => {
    const fresh = documents.filter((document): document is EncryptedDocument => document !== undefined && !document._deleted && wanted.delete(document._id));
    if (fresh.length === 0 || cancelled) return;
    onDocuments(fresh);
    void local
      .bulkDocs(fresh, { new_edits: false })
      .catch(() => undefined)
      .finally(() => fresh.forEach((document) => landing.landed(document._id)));
    if (wanted.size === 0) feed?.cancel();
  };
  void (async () => {
    const { update_seq: since } = await remote.info();
    take(await getDocuments(remote, ids));
    if (cancelled || wanted.size === 0) return;
    feed = remote
      .changes({ since, live: true, include_docs: true, doc_ids: [...wanted] })
      .on('change', (change) => take([change.doc]))
      .on('error', giveUp);
    if (cancelled) feed.cancel();
  })().catch(giveUp);
  return { cancel: giveUp };
}

// Documents taken from the server itself rather than through the live replication: a file's chunks another device is
// sending, which the replication would pull in batches of what the server held at each of its rounds.
import type { Database } from 'pouchdb-browser';
import { getDocuments } from './bulk-documents';
import type { EncryptedDocument } from './mirror';

/**
 * `takeFromServer` (mirror.ts) over two PouchDB databases: the server's sequence is read first, then the documents it
 * holds (one `_all_docs` by keys), then its changes since that sequence filtered to the ids still wanted (a `_doc_ids`
 * longpoll), so none written in between is missed. Each document is handed on once and written to `local` with its
 * revision (`new_edits: false`). Failures end the taking quietly: the replication still brings everything.
 */
export function takeFromServer(local: Database<EncryptedDocument>, remote: Database<EncryptedDocument>, ids: string[], onDocuments: (documents: EncryptedDocument[]) => void): { cancel(): void } {
  const wanted = new Set(ids);
  let cancelled = false;
  let feed: { cancel(): void } | undefined;
  const take = (documents: Array<EncryptedDocument | undefined>) => {
    const fresh = documents.filter((document): document is EncryptedDocument => document !== undefined && !document._deleted && wanted.delete(document._id));
    if (fresh.length === 0 || cancelled) return;
    onDocuments(fresh);
    void local.bulkDocs(fresh, { new_edits: false }).catch(() => undefined);
    if (wanted.size === 0) feed?.cancel();
  };
  void (async () => {
    const { update_seq: since } = await remote.info();
    take(await getDocuments(remote, ids));
    if (cancelled || wanted.size === 0) return;
    feed = remote
      .changes({ since, live: true, include_docs: true, doc_ids: [...wanted] })
      .on('change', (change) => take([change.doc]))
      .on('error', () => undefined);
    if (cancelled) feed.cancel();
  })().catch(() => undefined);
  return {
    cancel() {
      cancelled = true;
      feed?.cancel();
    },
  };
}

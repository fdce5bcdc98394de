// The server's changes heard with their bodies, as they happen: a proposal another device writes is read from the
// change itself, where the live replication would first ask the mirror which revisions it lacks, then fetch them from
// the server in a second request (preceded, after a few idle seconds, by its CORS preflight).
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

/** How often a server that has nothing to say sends a newline on the waiting request (CouchDB's `heartbeat`). */
const HEARTBEAT_MS = 10_000;

/**
 * Hands on each document `remote` changes from now on (a longpoll of `_changes` with `include_docs`), until cancelled.
 * A failed request ends it (`onEnd`): whatever it would have brought, the replication brings.
 */
export function serverChanges(remote: Database<EncryptedDocument>, onDocument: (document: EncryptedDocument) => void, onEnd: () => void = () => undefined): { cancel(): void } {
  const feed = remote.changes({ since: 'now', live: true, include_docs: true, heartbeat: HEARTBEAT_MS });
  feed.on('change', (change) => change.doc && onDocument(change.doc)).on('error', onEnd);
  return { cancel: () => feed.cancel() };
}

/**
 * Stores a document's first revision as the server holds it (`new_edits: false`, its revision id kept), as the
 * replication would have stored it: a write over it is then the next revision of the same history on every device.
 * A later revision is left to the replication, which brings its history. True when stored.
 */
export async function adoptFirstRevision(local: Database<EncryptedDocument>, document: EncryptedDocument): Promise<boolean> {
  const rev = document._rev;
  if (!rev?.startsWith('1-') || document._deleted) return false;
  const { _id, e, iv, ct, s } = document;
  const revisions = { start: 1, ids: [rev.slice(2)] };
  const [result] = await local.bulkDocs([{ _id, _rev: rev, _revisions: revisions, ...(e ? { e } : {}), ...(iv ? { iv } : {}), ...(ct ? { ct } : {}), ...(s ? { s } : {}) } as EncryptedDocument], { new_edits: false });
  // With new_edits false, PouchDB answers only what it could not write.
  return !result || !('error' in result && result.error);
}

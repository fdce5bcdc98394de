// The mirror's bulk reads and writes (`getMany`, `putMany`): one `allDocs` or `bulkDocs` for many documents, as an
// initial upload needs. Any PouchDB database will do, so tests run it over PouchDB's in-memory adapter.
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

/** Several documents of `database` in one read (`allDocs` by keys), in order; undefined when absent or deleted. */
export async function getDocuments(database: Database<EncryptedDocument>, ids: string[]): Promise<Array<EncryptedDocument | undefined>> {
  if (ids.length === 0) return [];
  const { rows } = await database.allDocs({ keys: ids, include_docs: true });
  return rows.map((row) => (row.doc && !row.value?.deleted && !row.doc._deleted ? (row.doc as EncryptedDocument) : undefined));
}

/**
 * Writes `documents` to `database` with one `bulkDocs` per attempt. A revision that arrived from the server meanwhile
 * (409) is written over with the newest revision, as `put` does, up to 3 times; any other error is that document's alone.
 * What each came to, in order: undefined when written, else its error. `onWritten` hears each revision written, with the
 * document as written (its `_rev` the revision it replaced).
 */
export async function putDocuments(database: Database<EncryptedDocument>, documents: EncryptedDocument[], onWritten?: (document: EncryptedDocument, rev: string) => void): Promise<Array<Error | undefined>> {
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
      for (const entry of pending) errors[entry.index] = (await putDocuments(database, [entry.document], onWritten))[0];
      break;
    }
    const conflicts: typeof pending = [];
    pending.forEach((entry, position) => {
      const result = results[position];
      if (result && 'ok' in result && result.ok) onWritten?.(entry.document, result.rev);
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

export type RevsDiff = (request: Record<string, string[]>, ...rest: unknown[]) => Promise<Record<string, { missing: string[] }>>;

/**
 * The replication's question "which of these revisions does the mirror lack?" answered without reading for a revision
 * the mirror is known to hold (`held`: this device wrote it, or the replication moved it), as every write of this device
 * is when the server hands it back; then with one read (`allDocs` by keys) for every document whose newest revision is
 * the one asked about: PouchDB reads each document's revision tree in a transaction of its own. Any other document is
 * answered by PouchDB's own `revsDiff`.
 */
export function revisionsHeldFirst(database: Database<EncryptedDocument>, revsDiff: RevsDiff, held: (id: string, rev: string) => boolean = () => false): RevsDiff {
  return async (request, ...rest) => {
    const ids = Object.keys(request).filter((id) => !(request[id]!.length === 1 && held(id, request[id]![0]!)));
    if (ids.length === 0) return {};
    const { rows } = await database.allDocs({ keys: ids });
    const others: Record<string, string[]> = {};
    rows.forEach((row, index) => {
      const id = ids[index]!;
      const asked = request[id]!;
      if (!(asked.length === 1 && row.value?.rev === asked[0])) others[id] = asked;
    });
    return Object.keys(others).length === 0 ? {} : revsDiff(others, ...rest);
  };
}

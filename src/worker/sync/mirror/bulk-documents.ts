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

/** How long new documents wait for the server before they are written to the mirror anyway (the replication sends them). */
const SERVER_WAIT_MS = 15_000;

/**
 * `putNew` (mirror.ts) over two PouchDB databases: each document gets a first revision of its own (`1-` and 32 random
 * hex digits) and is sent to `remote`, when given, with `new_edits: false` (the server keeps that very revision), then
 * written to `local` the same way. Sent first, so the replication, which notices the mirror's write at once, finds the
 * revision on the server instead of sending it too. Nothing is read first (under load a read of the mirror waited
 * 700 ms behind the page's own reads): one the mirror holds already (a file whose upload a closed tab cut short) gets
 * a second first revision beside the one it has, the same file's bytes sealed again, and either one opens. `told`
 * hears each revision written to the mirror, then each the server took (for "Synced": server-agreement.ts).
 */
export async function putNewDocuments(
  local: Database<EncryptedDocument>,
  remote: Database<EncryptedDocument> | undefined,
  documents: EncryptedDocument[],
  told: { sent?: (id: string, rev: string) => void; written?: (id: string, rev: string) => void } = {},
): Promise<Array<Error | undefined>> {
  if (documents.length === 0) return [];
  const fresh = documents.map(({ _rev: _ignored, ...document }) => ({ ...document, _rev: `1-${crypto.randomUUID().replaceAll('-', '')}` }));
  // Told in the order they happened to both sides' knowledge: written to the mirror, then held by the server.
  let taken: typeof fresh | undefined;
  let landed = false;
  const tellSent = () => taken?.forEach((document) => told.sent?.(document._id, document._rev));
  if (remote) {
    const sending = remote.bulkDocs(fresh, { new_edits: false }).then((results) => {
      const refused = new Set(results.flatMap((result) => ('error' in result && result.error && result.id ? [result.id] : [])));
      taken = fresh.filter((document) => !refused.has(document._id));
      if (landed) tellSent();
    });
    await untilSentOrLater(sending);
  }
  // With new_edits false, PouchDB answers only the documents it could not write.
  const failed = new Map<string, Error>();
  try {
    for (const result of await local.bulkDocs(fresh, { new_edits: false })) {
      if ('error' in result && result.error && result.id) failed.set(result.id, Object.assign(new Error(result.message ?? result.name ?? 'write failed'), { status: result.status, name: result.name ?? 'Error' }));
    }
  } catch (error) {
    for (const document of fresh) failed.set(document._id, error instanceof Error ? error : new Error(String(error)));
  }
  for (const document of fresh) if (!failed.has(document._id)) told.written?.(document._id, document._rev);
  landed = true;
  tellSent();
  return documents.map((document) => failed.get(document._id));
}

/** Waits for a send to the server to end (well or not), or `SERVER_WAIT_MS`, whichever is first. */
export async function untilSentOrLater(sending: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([sending.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, SERVER_WAIT_MS)))]);
  clearTimeout(timer);
}

// Reads of a new mirror answered without IndexedDB for ids nothing has written to it (docs/architecture.md, "Sync": the
// initial upload). An upload's every segment and record is first looked for in the mirror (its layout, the revision to
// write over); in a mirror that was empty when it opened, those reads found nothing, and each waited behind the
// upload's own writes to the same database.
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

type AllDocs = Database<EncryptedDocument>['allDocs'];
type BulkDocs = Database<EncryptedDocument>['bulkDocs'];
type AllDocsOptions = { keys?: string[] } & Record<string, unknown>;
type Row = { key: string; error?: string } & Record<string, unknown>;

/**
 * Makes `local`'s reads by keys (`allDocs` with `keys`: the mirror's `getMany`, and the replication's question about
 * the revisions it pulls) answer "not found" without reading for an id no write to `local` has named since it opened,
 * when it held no document then. Every write of a PouchDB database goes through its `bulkDocs` (a `put`, the
 * replication's writes), so an id not named there is not in it. Until the mirror is known to have been empty, and for
 * every id a write named (whether it took or not), reads go to IndexedDB as before. Installed once, at open; resolves
 * once whether it was empty is known.
 */
export function absentFirst(local: Database<EncryptedDocument>): Promise<void> {
  const named = new Set<string>();
  /** Whether the mirror held no document when it opened; undefined until known. */
  let empty: boolean | undefined;
  const bulkDocs = local.bulkDocs.bind(local) as (...args: unknown[]) => unknown;
  local.bulkDocs = ((request: unknown, ...rest: unknown[]) => {
    const documents = Array.isArray(request) ? request : (request as { docs?: unknown[] } | undefined)?.docs;
    for (const document of documents ?? []) {
      const id = (document as { _id?: unknown } | null)?._id;
      // A document without an id gets one from PouchDB, unknown here: nothing is answered without reading any more.
      if (typeof id === 'string') named.add(id);
      else empty = false;
    }
    return bulkDocs(request, ...rest);
  }) as BulkDocs;
  const known = local.info().then(
    (info) => void (empty ??= Number(info.update_seq) === 0),
    () => void (empty = false),
  );
  const allDocs = local.allDocs.bind(local) as (options?: AllDocsOptions, ...rest: unknown[]) => Promise<{ rows: Row[] } & Record<string, unknown>>;
  local.allDocs = (async (...args: [AllDocsOptions?, ...unknown[]]) => {
    const [options, ...rest] = args;
    const keys = options?.keys;
    // Passed on as given: PouchDB tells a call's options from its callback by how many arguments it has.
    if (!empty || !keys || rest.length > 0) return allDocs(...args);
    const written = keys.filter((key) => named.has(key));
    if (written.length === keys.length) return allDocs(options);
    const read = written.length > 0 ? await allDocs({ ...options, keys: written }) : { rows: [] as Row[], total_rows: 0, offset: 0 };
    const found = new Map(read.rows.map((row) => [row.key, row]));
    return { ...read, rows: keys.map((key) => found.get(key) ?? { key, error: 'not_found' }) };
  }) as unknown as AllDocs;
  return known;
}

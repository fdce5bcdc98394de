import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { getDocuments, putDocuments } from '../../src/worker/sync/mirror/bulk-documents';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';

// The mirror is written in bulk (one `bulkDocs` per batch of sealed documents, not one `put` each). What `put`
// did for one document, `putDocuments` must do for each: a revision that arrived from the server meanwhile is written
// over, and a document that fails fails alone. PouchDB's IndexedDB adapter does not run over fake-indexeddb, so this
// runs the same PouchDB code over its in-memory adapter (pouchdb-core and pouchdb-adapter-memory, from pouchdb-server).

const require = createRequire(import.meta.url);
type MemoryPouch = new (name: string, options: { adapter: 'memory' }) => Database<EncryptedDocument>;
const PouchDB = require('pouchdb-core') as MemoryPouch & { plugin(plugin: unknown): void };
PouchDB.plugin(require('pouchdb-adapter-memory'));

let databases = 0;
const memoryDatabase = () => new PouchDB(`bulk-${(databases += 1)}-${Math.random().toString(36).slice(2)}`, { adapter: 'memory' });
const sealed = (id: string, ct: string, rev?: string): EncryptedDocument => ({ _id: id, ...(rev ? { _rev: rev } : {}), e: 1, iv: 'iv', ct });

describe('bulk writes to the mirror (sync)', () => {
  it('writes every document, each over a revision that arrived meanwhile (a stale or missing _rev)', async () => {
    const database = memoryDatabase();
    const first = await database.put(sealed('doc-a', 'a1'));
    await database.put(sealed('doc-b', 'b1'));
    // doc-a was read at its first revision, then a replicated revision replaced it; doc-b was never read (no _rev).
    await database.put(sealed('doc-a', 'a-from-server', first.rev));
    const errors = await putDocuments(database, [sealed('doc-a', 'a2', first.rev), sealed('doc-b', 'b2'), sealed('doc-c', 'c1')]);
    expect(errors).toEqual([undefined, undefined, undefined]);
    const read = await getDocuments(database, ['doc-a', 'doc-b', 'doc-c']);
    expect(read.map((document) => document?.ct)).toEqual(['a2', 'b2', 'c1']);
  });

  it('a document the database refuses fails alone: its error is returned in its place, the others are written', async () => {
    const database = memoryDatabase();
    // An id starting with "_" is refused (400) by PouchDB, as IndexedDB refusing one write would be.
    const errors = await putDocuments(database, [sealed('doc-x', 'x1'), sealed('_refused', 'r1'), sealed('doc-y', 'y1')]);
    expect(errors[0]).toBeUndefined();
    expect(errors[1]).toBeInstanceOf(Error);
    expect(errors[2]).toBeUndefined();
    expect((await getDocuments(database, ['doc-x', 'doc-y'])).map((document) => document?.ct)).toEqual(['x1', 'y1']);
  });

  it('reads several documents at once, in order: absent and deleted ones as undefined', async () => {
    const database = memoryDatabase();
    await database.put(sealed('doc-1', 'one'));
    const gone = await database.put(sealed('doc-2', 'two'));
    await database.put({ _id: 'doc-2', _rev: gone.rev, _deleted: true });
    const read = await getDocuments(database, ['doc-2', 'doc-1', 'doc-missing']);
    expect(read.map((document) => document?.ct)).toEqual([undefined, 'one', undefined]);
  });
});

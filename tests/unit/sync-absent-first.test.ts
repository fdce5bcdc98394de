import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { absentFirst } from '../../src/worker/sync/mirror/absent-first';
import { getDocuments } from '../../src/worker/sync/mirror/bulk-documents';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver } from '../../src/worker/sync/mirror/pouch-database-mirror';

// A new mirror's reads of documents nothing has written to it (an initial upload looks for every segment and record
// before writing it) are answered without reading the database: in the browser each read was an IndexedDB transaction
// that waited behind the upload's own writes. Counted here as PouchDB's reads over its in-memory adapter.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-replication'));

const sealed = (id: string): EncryptedDocument => ({ _id: id, e: 1, iv: 'iv', ct: `body of ${id}` });
const name = () => `absent-${Math.random().toString(36).slice(2)}`;
const memory = (named = name()) => new PouchDB(named, { adapter: 'memory' });

/** The ids the database was asked to read (PouchDB's `_allDocs`: in the browser, IndexedDB transactions). */
function countReads(local: Database<EncryptedDocument>): { asked: Set<string> } {
  const counts = { asked: new Set<string>() };
  const internals = local as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = internals._allDocs!.bind(local);
  internals._allDocs = (...args: unknown[]) => {
    const options = args[0] as { key?: string; keys?: string[] };
    for (const key of options.keys ?? (options.key === undefined ? ['(all)'] : [options.key])) counts.asked.add(key);
    return original(...args);
  };
  return counts;
}

describe('a new mirror’s reads of what nothing wrote (sync, initial upload)', () => {
  it('answers "not found" without reading for ids no write named', async () => {
    const local = memory();
    await absentFirst(local);
    const counts = countReads(local);
    expect(await getDocuments(local, ['a', 'b'])).toEqual([undefined, undefined]);
    const { rows } = await local.allDocs({ keys: ['a', 'b'] });
    expect(rows).toEqual([{ key: 'a', error: 'not_found' }, { key: 'b', error: 'not_found' }]);
    expect([...counts.asked]).toEqual([]);
  });

  it('reads every id a write named, by any way in: bulkDocs, put, the replication’s writes, a write that failed', async () => {
    const local = memory();
    await absentFirst(local);
    await local.bulkDocs([sealed('a')]);
    await local.put(sealed('b'));
    const other = memory();
    await other.put(sealed('c'));
    await (local as unknown as { replicate: { from(source: unknown): Promise<unknown> } }).replicate.from(other);
    // A conflict: nothing written, but the id is read from now on.
    await local.bulkDocs([{ ...sealed('a'), _rev: '1-0123' }]);
    const counts = countReads(local);
    const found = await getDocuments(local, ['x', 'a', 'b', 'c', 'y', 'a']);
    expect(found.map((document) => document?._id)).toEqual([undefined, 'a', 'b', 'c', undefined, 'a']);
    expect([...counts.asked].sort()).toEqual(['a', 'b', 'c']);
  });

  it('reads everything in a mirror that held documents when it opened', async () => {
    const named = name();
    await memory(named).put(sealed('a'));
    const local = memory(named);
    await absentFirst(local);
    const counts = countReads(local);
    expect((await getDocuments(local, ['a', 'b'])).map((document) => document?._id)).toEqual(['a', undefined]);
    expect([...counts.asked].sort()).toEqual(['a', 'b']);
  });

  it('finds through the mirror what it wrote and reads nothing for the rest', async () => {
    const local = memory();
    const mirror = mirrorOver(local, memory());
    await local.info();
    await mirror.putMany([sealed('a'), sealed('b')]);
    const counts = countReads(local);
    expect((await mirror.getMany(['a', 'c', 'b'])).map((document) => document?._id)).toEqual(['a', undefined, 'b']);
    expect(await mirror.getMany(['c', 'd'])).toEqual([undefined, undefined]);
    expect([...counts.asked].sort()).toEqual(['a', 'b']);
  });
});

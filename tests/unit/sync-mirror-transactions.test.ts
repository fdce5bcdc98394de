import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { couchForMirrors } from './couch-for-mirrors';

// What a synced round costs the device's IndexedDB beyond its own records: every batch the replication moves either
// way, and the position the engine keeps after each. Counted here as PouchDB's reads and writes of the mirror (over its
// in-memory adapter; in the browser each is an IndexedDB transaction).

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const WAIT = { timeout: 30_000, interval: 50 };
const sealed = (id: string): EncryptedDocument => ({ _id: id, e: 1, iv: 'iv', ct: `body of ${id}` });
const memory = () => new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });

/** Counts the mirror's reads of a document's revision tree and its reads and writes of local (unreplicated) documents. */
function counted(local: Database<EncryptedDocument>) {
  const counts = { revisionTrees: 0, documentReads: 0, localReads: 0, localWrites: [] as string[] };
  const internals = local as unknown as Record<string, (...args: unknown[]) => unknown>;
  const counters = [
    ['_getRevisionTree', () => (counts.revisionTrees += 1)],
    ['_allDocs', () => (counts.documentReads += 1)],
    ['_getLocal', () => (counts.localReads += 1)],
  ] as const;
  for (const [name, count] of counters) {
    const original = internals[name]!.bind(local);
    internals[name] = (...args: unknown[]) => {
      count();
      return original(...args);
    };
  }
  const putLocal = internals._putLocal!.bind(local);
  internals._putLocal = (...args: unknown[]) => {
    counts.localWrites.push((args[0] as { _id: string })._id);
    return putLocal(...args);
  };
  return counts;
}

describe('the mirror’s own IndexedDB transactions (sync)', { timeout: 60_000 }, () => {
  const server = couchForMirrors();

  it('answers which revisions it lacks without reading for what it wrote itself', async () => {
    const local = memory();
    const mirror = mirrorOver(local, memory());
    await mirror.putMany(['a', 'b', 'c'].map(sealed));
    const held = await mirror.getMany(['a', 'b', 'c']);
    const counts = counted(local);
    // What this device wrote, handed back by the server: all held, known without a read.
    expect(await local.revsDiff(Object.fromEntries(held.map((document) => [document!._id, [document!._rev!]])))).toEqual({});
    expect(counts).toMatchObject({ revisionTrees: 0, documentReads: 0 });
  });

  it('answers which revisions it lacks with one read for what it holds, reading revision trees only for the rest', async () => {
    const local = memory();
    // What another device wrote, stored here (as the replication stores it): held, but not written by this mirror.
    await local.bulkDocs(['a', 'b', 'c'].map((id) => ({ ...sealed(id), _rev: `1-${id}0`, _revisions: { start: 1, ids: [`${id}0`] } })), { new_edits: false });
    const mirror = mirrorOver(local, memory());
    const held = await mirror.getMany(['a', 'b', 'c']);
    const counts = counted(local);
    // All held: found with one read (allDocs by keys), no revision tree.
    expect(await local.revsDiff(Object.fromEntries(held.map((document) => [document!._id, [document!._rev!]])))).toEqual({});
    expect(counts.revisionTrees).toBe(0);
    // Another revision of one, and a document it has never seen: both lacked, as PouchDB says.
    expect(await local.revsDiff({ a: ['2-abc'], d: ['1-def'] })).toEqual({ a: { missing: ['2-abc'] }, d: { missing: ['1-def'] } });
  });

  it('keeps a local value with one write once it knows its revision', async () => {
    const local = memory();
    const mirror = mirrorOver(local, memory());
    await mirror.setLocal('since', 1);
    const counts = counted(local);
    await mirror.setLocal('since', 2);
    await mirror.setLocal('since', 3);
    expect(counts.localReads).toBe(0);
    expect(await mirror.getLocal('since')).toBe(3);
  });

  it('keeps the replication’s checkpoints on the server only: a batch either way writes none into the mirror', async () => {
    const url = await server.couch.createDatabase();
    const local = memory();
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    server.mirrors.push(mirror);
    const counts = counted(local);
    mirror.replicate(() => undefined);
    // One document pushed from here, one pulled from the server (another device's).
    await mirror.putMany([sealed('mine')]);
    await remote.bulkDocs([sealed('theirs')]);
    await expect.poll(async () => (await mirror.get('theirs')) !== undefined && (await server.couch.allDocuments(url)).some((document) => document._id === 'mine'), WAIT).toBe(true);
    // The pull's batch is written (and checkpointed) before the next one starts; this last write comes after both.
    await remote.bulkDocs([sealed('later')]);
    await expect.poll(() => mirror.get('later'), WAIT).toBeDefined();
    expect(counts.localWrites).toEqual([]);
  });
});

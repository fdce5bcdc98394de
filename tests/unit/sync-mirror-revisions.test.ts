import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { MIRROR_DATABASE_OPTIONS, mirrorOver, type PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';

// The mirror keeps a short revision history (MIRROR_DATABASE_OPTIONS). A mirror the build before wrote (1,000 revision
// ids a document) keeps replicating where it stopped when opened so, and a document rewritten more often than the
// history holds still reaches the server and the other devices with its newest revision winning. PouchDB's in-memory
// adapter stands for the browser's IndexedDB one (same core); the "server" is a PouchDB database that keeps CouchDB's
// default history of 1,000.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-replication'));

type Revisions = { _revisions: { start: number; ids: string[] }; _conflicts?: string[] };
/** The parts of PouchDB this test reads beyond what the app's typing declares. */
interface Inspected {
  info(): Promise<{ doc_count: number; update_seq: number | string }>;
  changes: (options: { since?: unknown }) => unknown;
  allDocs(): Promise<{ rows: Array<{ id: string }> }>;
  get(id: string, options: { revs: true; conflicts: true }): Promise<EncryptedDocument & Revisions>;
  replicate: { to(target: unknown): Promise<unknown>; from(source: unknown): Promise<unknown> };
}
const inspect = (database: Database<EncryptedDocument>) => database as unknown as Inspected;
const WAIT = { timeout: 30_000, interval: 20 };
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2)}`;
const body = (text: string) => ({ e: 1 as const, iv: 'iv', ct: text });

const open: PouchMirror[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mirror) => mirror.close().catch(() => undefined)));
});

/** A mirror of `server` over the local database `name`, opened with `options`, replicating live unless `live` is false. */
function mirrorOf(name: string, server: Database<EncryptedDocument>, options: Record<string, unknown>, { live = true } = {}): { mirror: PouchMirror; local: Database<EncryptedDocument> } {
  const local = new PouchDB(name, { adapter: 'memory', ...options });
  const mirror = mirrorOver(local, server, { countAfterMs: 0 });
  if (live) mirror.replicate(() => undefined);
  open.push(mirror);
  return { mirror, local };
}

/** Writes `count` revisions of a document through the mirror, each over the one before (as the push queue does). */
async function rewrite(mirror: PouchMirror, id: string, count: number, prefix: string): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const current = await mirror.get(id);
    await mirror.put({ _id: id, ...(current?._rev ? { _rev: current._rev } : {}), ...body(`${prefix}${index}`) });
  }
}

const serverHas = (server: Database<EncryptedDocument>, id: string, ct: string) => async () => expect((await server.get(id).catch(() => undefined))?.ct).toBe(ct);

describe("the mirror's revision history (sync)", { timeout: 60_000 }, () => {
  it("a mirror the build before wrote keeps syncing from where it stopped, with its history stemmed as it is written", async () => {
    const server = new PouchDB(unique('server'), { adapter: 'memory' });
    const name = unique('mirror');
    // The build before: every revision id kept.
    const before = mirrorOf(name, server, { auto_compaction: true }, { live: false });
    for (let index = 0; index < 20; index += 1) await before.mirror.put({ _id: `record-${index}`, ...body(`record ${index}`) });
    await rewrite(before.mirror, 'streamed', 80, 'draft ');
    // Replicated both ways to the end, its checkpoints written (the live replication shares them: same databases).
    await inspect(before.local).replicate.to(server);
    await inspect(before.local).replicate.from(server);
    expect((await server.get('streamed')).ct).toBe('draft 79');
    expect((await inspect(server).info()).doc_count).toBe(21);
    await before.mirror.close();
    open.splice(open.indexOf(before.mirror), 1);
    const serverSeq = (await inspect(server).info()).update_seq;

    // This build opens the same database: the pull starts from its checkpoint, not from the start.
    const asked: unknown[] = [];
    const changes = inspect(server).changes.bind(server);
    inspect(server).changes = (options) => {
      asked.push(options?.since);
      return changes(options);
    };
    const after = mirrorOf(name, server, MIRROR_DATABASE_OPTIONS);
    await server.put({ _id: 'from-elsewhere', ...body('another device') });
    await rewrite(after.mirror, 'streamed', 5, 'final ');
    await vi.waitFor(serverHas(server, 'streamed', 'final 4'), WAIT);
    await vi.waitFor(async () => expect((await after.mirror.get('from-elsewhere'))?.ct).toBe('another device'), WAIT);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((since) => typeof since === 'number' && since >= (serverSeq as number))).toBe(true);
    // Nothing was lost or doubled: every record is here once, without conflicts, the server's history is whole.
    expect((await inspect(after.local).allDocs()).rows.map((row) => row.id).filter((id) => id.startsWith('record-'))).toHaveLength(20);
    const here = await inspect(after.local).get('streamed', { revs: true, conflicts: true });
    const there = await inspect(server).get('streamed', { revs: true, conflicts: true });
    expect(here._conflicts ?? []).toEqual([]);
    expect(there._conflicts ?? []).toEqual([]);
    expect(here._revisions.ids.length).toBeLessThanOrEqual(MIRROR_DATABASE_OPTIONS.revs_limit);
    expect(there._revisions.start).toBe(85);
    expect(there._revisions.ids).toHaveLength(85);
  });

  it('a document rewritten more often than the history holds while offline still wins everywhere with its newest revision', async () => {
    const server = new PouchDB(unique('server'), { adapter: 'memory' });
    const laptop = mirrorOf(unique('laptop'), server, MIRROR_DATABASE_OPTIONS);
    const phone = mirrorOf(unique('phone'), server, MIRROR_DATABASE_OPTIONS);
    await rewrite(laptop.mirror, 'reply', 3, 'start ');
    await vi.waitFor(async () => expect((await phone.mirror.get('reply'))?.ct).toBe('start 2'), WAIT);
    // Offline, the reply streams on: more revisions than the mirror's history holds, none of them pushed.
    laptop.mirror.stopReplication();
    await rewrite(laptop.mirror, 'reply', MIRROR_DATABASE_OPTIONS.revs_limit + 30, 'offline ');
    const newest = `offline ${MIRROR_DATABASE_OPTIONS.revs_limit + 29}`;
    laptop.mirror.replicate(() => undefined);
    await vi.waitFor(serverHas(server, 'reply', newest), WAIT);
    await vi.waitFor(async () => expect((await phone.mirror.get('reply'))?.ct).toBe(newest), WAIT);
    expect((await laptop.mirror.get('reply'))?.ct).toBe(newest);
    // The laptop writes on over it, as the runner does: the phone follows.
    await rewrite(laptop.mirror, 'reply', 1, 'done ');
    await vi.waitFor(async () => expect((await phone.mirror.get('reply'))?.ct).toBe('done 0'), WAIT);
    expect((await server.get('reply')).ct).toBe('done 0');
  });
});

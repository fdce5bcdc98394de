import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { LAPTOP, PHONE, testKeys } from './sync-simulation';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver, type PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import { documentId } from '../../src/worker/sync/documents/sync-crypto';
import type { Proposal } from '../../src/schema/sync/sync';
import { couchForMirrors } from './couch-for-mirrors';

// docs/architecture.md, "Sync": a proposal (an answer, an Allow, a Deny) and its outcome go to the server as soon as
// they are in the mirror, not when the live replication gets round to them (it noticed the write, asked the server
// which revisions it lacked, then sent them, queued behind whatever batch or checkpoint it had under way). The mirror
// is the app's (mirrorOver) over PouchDB's in-memory adapter, replicating live with pouchdb-server.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const WAIT = { timeout: 30_000, interval: 50 };

/** What the device asked of the server, in order: which revisions it lacks, or to store some (as `id@rev`). */
type Call = { method: 'revsDiff' | 'bulkDocs'; revisions: string[] };

/**
 * Runs `before` ahead of every bulkDocs on `database` (the mirror's own, or its handle on the server), with the ids it
 * writes: it may hold the write back (awaiting) or fail it (throwing).
 */
function beforeBulkDocs(database: Database<EncryptedDocument>, before: (ids: string[]) => Promise<void> | void): void {
  const bulkDocs = database.bulkDocs.bind(database) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(database, {
    bulkDocs: async (documents: EncryptedDocument[] | { docs: EncryptedDocument[] }, ...rest: unknown[]) => {
      await before((Array.isArray(documents) ? documents : documents.docs).map((document) => document._id));
      return bulkDocs(documents, ...rest);
    },
  });
}

describe('a proposal and its outcome are sent to the server at once (sync, pouchdb-server)', { timeout: 60_000 }, () => {
  const server = couchForMirrors();

  /** A device's mirror of `url`, replicating live, and every revs_diff and bulk_docs it sends the server. */
  async function replicatingMirror(url: string): Promise<{ mirror: PouchMirror; calls: Call[]; states: string[]; local: Database<EncryptedDocument>; remote: Database<EncryptedDocument> }> {
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
    const calls: Call[] = [];
    const revsDiff = (remote as unknown as { revsDiff: (diff: Record<string, string[]>, ...rest: unknown[]) => Promise<unknown> }).revsDiff.bind(remote);
    Object.assign(remote, {
      revsDiff: (diff: Record<string, string[]>, ...rest: unknown[]) => {
        calls.push({ method: 'revsDiff', revisions: Object.entries(diff).flatMap(([id, revs]) => revs.map((rev) => `${id}@${rev}`)) });
        return revsDiff(diff, ...rest);
      },
    });
    const bulkDocs = remote.bulkDocs.bind(remote) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(remote, {
      bulkDocs: (documents: EncryptedDocument[] | { docs: EncryptedDocument[] }, ...rest: unknown[]) => {
        calls.push({ method: 'bulkDocs', revisions: (Array.isArray(documents) ? documents : documents.docs).map((document) => `${document._id}@${document._rev}`) });
        return bulkDocs(documents, ...rest);
      },
    });
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    let synced!: () => void;
    const caughtUp = new Promise<void>((resolve) => (synced = resolve));
    const states: string[] = [];
    mirror.replicate((state) => {
      states.push(state.state);
      if (state.state === 'synced') synced();
    });
    server.mirrors.push(mirror);
    await caughtUp;
    return { mirror, calls, states, local, remote };
  }

  /** The first request that named this revision: the replication asks (revsDiff) before it sends; sent at once, it is not asked about. */
  const firstAbout = (calls: Call[], id: string, rev: string | undefined) => calls.find((call) => call.revisions.includes(`${id}@${rev}`))?.method;
  /** Every request that named this revision, in order. */
  const allAbout = (calls: Call[], id: string, rev: string | undefined) => calls.filter((call) => call.revisions.includes(`${id}@${rev}`)).map((call) => call.method);
  const onServer = async (url: string, id: string) => (await server.couch.allDocuments(url)).find((document) => document._id === id) as EncryptedDocument | undefined;
  const sealedDocument = (id: string): EncryptedDocument => ({ _id: id, e: 1, iv: `iv-${id}`, ct: `sealed ${id}` });
  /** Until the replication has gone over the mirror's changes since `from` (a state index) and is idle again. */
  const syncedAfter = (states: string[], from: number) => expect.poll(() => states.slice(from).includes('synced'), WAIT).toBe(true);

  it('reaches the server in a write of its own, before the replication asks about it, with the revision the mirror holds', async () => {
    const url = await server.couch.createDatabase();
    const keys = await testKeys();
    const phone = await replicatingMirror(url);
    const laptop = await replicatingMirror(url);
    const id = await documentId(keys, 'proposal', 'conversation-1', 'answer', PHONE.id);
    const proposal: Proposal = { id, conversationId: 'conversation-1', from: PHONE, command: { type: 'run.stop', conversationId: 'conversation-1' }, createdAt: 1, nonce: '0'.repeat(32) };
    await new SealedDocuments(phone.mirror, keys).write(id, { kind: 'proposal', proposal });
    const onServer = async () => (await server.couch.allDocuments(url)).find((document) => document._id === id) as (EncryptedDocument & { _conflicts?: string[] }) | undefined;
    await expect.poll(onServer, WAIT).toBeDefined();
    const first = (await phone.mirror.get(id))?._rev;
    expect((await onServer())?._rev).toBe(first);
    expect(firstAbout(phone.calls, id, first)).toBe('bulkDocs');

    // The runner's outcome, written over the revision that reached it, goes back the same way, as the next revision.
    await expect.poll(() => laptop.mirror.get(id), WAIT).toBeDefined();
    const outcome = { status: 'applied' as const, at: 2, by: LAPTOP };
    await new SealedDocuments(laptop.mirror, keys).write(id, { kind: 'proposal', proposal: { ...proposal, outcome } });
    const written = (await laptop.mirror.get(id))?._rev;
    expect(written?.startsWith('2-')).toBe(true);
    await expect.poll(async () => (await onServer())?._rev, WAIT).toBe(written);
    expect(firstAbout(laptop.calls, id, written)).toBe('bulkDocs');
    // One history on the server, as the replication would have left it: no second branch.
    expect((await onServer())?._conflicts).toBeUndefined();
    await expect.poll(async () => (await phone.mirror.get(id))?._rev, WAIT).toBe(written);
    // Neither replication asked the server about a revision sent at once (told it lacked what was on its way, it read
    // the document again and sent it a second time).
    const askedAbout = (calls: Call[], rev: string | undefined) => calls.filter((call) => call.method === 'revsDiff' && call.revisions.includes(`${id}@${rev}`));
    expect(askedAbout(phone.calls, first)).toEqual([]);
    expect(askedAbout(laptop.calls, written)).toEqual([]);
  });

  it('sends a large write (an initial upload) itself, 200 documents a request, and the replication neither asks about it nor sends it again', async () => {
    const url = await server.couch.createDatabase();
    const { mirror, calls, states } = await replicatingMirror(url);
    const documents = Array.from({ length: 450 }, (_, index) => ({ _id: `segment-${String(index).padStart(3, '0')}`, e: 3 as const, m: { iv: `iv-${index}`, ct: 'c'.repeat(1000) } }));
    const statesBefore = states.length;
    expect(await mirror.putMany(documents)).toEqual(documents.map(() => undefined));
    const onServer = async () => (await server.couch.allDocuments(url)).filter((document) => String(document._id).startsWith('segment-')).length;
    await expect.poll(onServer, WAIT).toBe(documents.length);
    // The replication has gone over the mirror's changes since the write, and is idle again.
    await expect.poll(() => states.slice(statesBefore).includes('synced'), WAIT).toBe(true);
    const held = await mirror.getMany(documents.map((document) => document._id));
    for (const document of held) {
      const named = calls.filter((call) => call.revisions.includes(`${document?._id}@${document?._rev}`));
      expect(named.map((call) => call.method)).toEqual(['bulkDocs']);
    }
    const sends = calls.filter((call) => call.method === 'bulkDocs' && call.revisions.some((revision) => revision.startsWith('segment-')));
    expect(sends.map((call) => call.revisions.length)).toEqual([200, 200, 50]);
  });

  it('sends a large write of new documents (an initial upload) to the server without waiting for its write to the mirror, with the revisions the mirror then holds', async () => {
    const url = await server.couch.createDatabase();
    const { mirror, local, calls, states } = await replicatingMirror(url);
    const documents = Array.from({ length: 250 }, (_, index) => ({ _id: `first-${String(index).padStart(3, '0')}`, e: 3 as const, m: { iv: `iv-${index}`, ct: 'c'.repeat(1000) } }));
    const onServer = async () => (await server.couch.allDocuments(url)).filter((document) => String(document._id).startsWith('first-'));
    // The mirror's write goes on only once the server holds the whole write: written first and sent after, neither would end.
    beforeBulkDocs(local, async (ids) => {
      if (ids.includes('first-000')) await expect.poll(async () => (await onServer()).length, WAIT).toBe(documents.length);
    });
    const statesBefore = states.length;
    expect(await mirror.putMany(documents)).toEqual(documents.map(() => undefined));
    const held = await mirror.getMany(documents.map((document) => document._id));
    const revisions = new Map((await onServer()).map((document) => [document._id, document._rev]));
    for (const document of held) {
      expect(document?._rev?.startsWith('1-')).toBe(true);
      expect(revisions.get(document!._id)).toBe(document?._rev);
    }
    // The replication neither asks the server about them nor sends them again.
    await syncedAfter(states, statesBefore);
    for (const document of held) expect(allAbout(calls, document!._id, document?._rev)).toEqual(['bulkDocs']);
  });

  it('offers again what it sent at once when the server lost its data', async () => {
    const url = await server.couch.createDatabase();
    const { mirror } = await replicatingMirror(url);
    await mirror.putMany([{ _id: 'kept', e: 1, iv: 'iv', ct: 'sealed body' }]);
    const onServer = async () => (await server.couch.allDocuments(url)).some((document) => document._id === 'kept');
    await expect.poll(onServer, WAIT).toBe(true);
    // The server loses its database and has an empty one again; the device offers it everything it holds.
    mirror.stopReplication();
    const admin = { authorization: `Basic ${btoa(`${server.couch.username}:${server.couch.password}`)}` };
    // The replication is cancelled, but a request of it may still be on its way (a checkpoint's): the database is gone
    // once DELETE answers, and exists, empty, once PUT answers (412: that request's own setup created it again first).
    const deleted = await fetch(url, { method: 'DELETE', headers: admin });
    expect([200, 404], `DELETE ${deleted.status}`).toContain(deleted.status);
    const created = await fetch(url, { method: 'PUT', headers: admin });
    expect([201, 412], `PUT ${created.status}`).toContain(created.status);
    expect(await onServer()).toBe(false);
    await mirror.uploadAll();
    expect(await onServer()).toBe(true);
  });
  it('sends a new document (a proposal) to the server without waiting for its write to the mirror, with the revision the mirror then holds', async () => {
    const url = await server.couch.createDatabase();
    const keys = await testKeys();
    const { mirror, local, calls, states } = await replicatingMirror(url);
    const id = await documentId(keys, 'proposal', 'conversation-2', 'answer', PHONE.id);
    // The mirror's write of it goes on only once the server holds it: written first and sent after, neither would end.
    beforeBulkDocs(local, async (ids) => {
      if (ids.includes(id)) await expect.poll(() => onServer(url, id), WAIT).toBeDefined();
    });
    const proposal: Proposal = { id, conversationId: 'conversation-2', from: PHONE, command: { type: 'run.stop', conversationId: 'conversation-2' }, createdAt: 1, nonce: '1'.repeat(32) };
    const statesBefore = states.length;
    await new SealedDocuments(mirror, keys).write(id, { kind: 'proposal', proposal });
    const held = await mirror.get(id);
    expect(held?._rev?.startsWith('1-')).toBe(true);
    expect((await onServer(url, id))?._rev).toBe(held?._rev);
    // The replication neither asks the server about it nor sends it again.
    await syncedAfter(states, statesBefore);
    expect(allAbout(calls, id, held?._rev)).toEqual(['bulkDocs']);
  });

  it('loses nothing when the send fails: the mirror holds the new revision and the replication carries it', async () => {
    const url = await server.couch.createDatabase();
    const { mirror, remote } = await replicatingMirror(url);
    let refused = 0;
    beforeBulkDocs(remote, (ids) => {
      if (!ids.includes('unsent') || refused > 0) return;
      refused += 1;
      throw new Error('Failed to fetch');
    });
    expect(await mirror.putMany([sealedDocument('unsent')])).toEqual([undefined]);
    expect(refused).toBe(1);
    const rev = (await mirror.get('unsent'))?._rev;
    expect(rev).toBeDefined();
    await expect.poll(async () => (await onServer(url, 'unsent'))?._rev, WAIT).toBe(rev);
  });

  it('counts a new document the server took as written when the mirror failed to write it, and the mirror then gets it from the server', async () => {
    const url = await server.couch.createDatabase();
    const { mirror, local } = await replicatingMirror(url);
    let failed = 0;
    beforeBulkDocs(local, (ids) => {
      if (!ids.includes('unwritten') || failed > 0) return;
      failed += 1;
      throw new Error('The transaction was aborted');
    });
    expect(await mirror.putMany([sealedDocument('unwritten')])).toEqual([undefined]);
    expect(failed).toBe(1);
    const rev = (await onServer(url, 'unwritten'))?._rev;
    expect(rev?.startsWith('1-')).toBe(true);
    // The replication brings it into the mirror with the revision this device chose.
    await expect.poll(async () => (await mirror.get('unwritten'))?._rev, WAIT).toBe(rev);
  });

  it('reports a new document that neither the mirror nor the server took as not written', async () => {
    const url = await server.couch.createDatabase();
    const { mirror, local, remote } = await replicatingMirror(url);
    const refuse = (ids: string[]) => {
      if (ids.includes('nowhere')) throw new Error('refused');
    };
    beforeBulkDocs(local, refuse);
    beforeBulkDocs(remote, refuse);
    const [error] = await mirror.putMany([sealedDocument('nowhere')]);
    expect(error).toBeInstanceOf(Error);
    expect(await mirror.get('nowhere')).toBeUndefined();
    expect(await onServer(url, 'nowhere')).toBeUndefined();
  });

  it("sends a small write (a proposal) while a large write's requests wait, and the sends are over once both are answered", async () => {
    const url = await server.couch.createDatabase();
    const { mirror, remote, calls, states } = await replicatingMirror(url);
    let release!: () => void;
    const upload = new Promise<void>((resolve) => (release = resolve));
    beforeBulkDocs(remote, async (ids) => {
      if (ids.some((id) => id.startsWith('segment-'))) await upload;
    });
    const documents = Array.from({ length: 450 }, (_, index) => ({ _id: `segment-${String(index).padStart(3, '0')}`, e: 3 as const, m: { iv: `iv-${index}`, ct: 'c'.repeat(1000) } }));
    const statesBefore = states.length;
    expect(await mirror.putMany(documents)).toEqual(documents.map(() => undefined));
    let over = false;
    void mirror.sends()?.then(() => (over = true));
    expect(await mirror.putMany([sealedDocument('proposal-during-upload')])).toEqual([undefined]);
    await expect.poll(() => onServer(url, 'proposal-during-upload'), WAIT).toBeDefined();
    // Still sending the upload: "Synced" waits for it.
    expect(over).toBe(false);
    expect(mirror.sends()).toBeDefined();
    release();
    await mirror.sends();
    expect(over).toBe(true);
    const segmentsOnServer = async () => (await server.couch.allDocuments(url)).filter((document) => String(document._id).startsWith('segment-')).length;
    expect(await segmentsOnServer()).toBe(documents.length);
    await syncedAfter(states, statesBefore);
    const rev = (await mirror.get('proposal-during-upload'))?._rev;
    expect(allAbout(calls, 'proposal-during-upload', rev)).toEqual(['bulkDocs']);
  });

  it('sends a later revision once the request carrying the earlier one is answered, so the server can place it', async () => {
    const url = await server.couch.createDatabase();
    const { mirror, remote, calls, states } = await replicatingMirror(url);
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    beforeBulkDocs(remote, async (ids) => {
      if (!ids.includes('twice') || held > 0) return;
      held += 1;
      await first;
    });
    const statesBefore = states.length;
    expect(await mirror.putMany([sealedDocument('twice')])).toEqual([undefined]);
    const rev1 = (await mirror.get('twice'))?._rev;
    expect(await mirror.putMany([{ ...sealedDocument('twice'), ct: 'sealed again', _rev: rev1 }])).toEqual([undefined]);
    const rev2 = (await mirror.get('twice'))?._rev;
    expect(rev2?.startsWith('2-')).toBe(true);
    release();
    await expect.poll(async () => (await onServer(url, 'twice'))?._rev, WAIT).toBe(rev2);
    await syncedAfter(states, statesBefore);
    expect(allAbout(calls, 'twice', rev2)).toEqual(['bulkDocs']);
  });
});

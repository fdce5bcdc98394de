import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { LAPTOP, SimulatedMirror, SimulatedServer, simulatedDevices, testKeys } from './sync-simulation';
import { couchForMirrors } from './couch-for-mirrors';
import { script, waitForRunState } from './host-harness';
import { CHUNK_BYTES, chunkId, sealChunk } from '../../src/worker/sync/content/attachment-chunks';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver, type PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { takeFromServer } from '../../src/worker/sync/mirror/server-documents';
import { SyncEngine } from '../../src/worker/sync/sync-engine';
import { segmentId } from '../../src/worker/sync/documents/message-segments';
import type { SyncEngineHost } from '../../src/worker/sync/engine-context';
import type { Message } from '../../src/schema/records';

// docs/architecture.md, "Sync": a file's chunks travel as soon as its message is stored, straight to the server as they
// are sealed, and the device waiting for them takes them from the server as they are there, rather than each side
// waiting for its live replication's next round.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const WAIT = { timeout: 30_000, interval: 50 };

/** A chunk-sized sealed document (about 700 KB of base64): far over what a small write sends at once. */
async function bigChunk(index: number): Promise<EncryptedDocument> {
  const keys = await testKeys();
  const id = await chunkId(keys, `file-${Math.random()}`, index);
  const header = { v: 1 as const, attachmentId: 'a', conversationId: 'c', messageId: 'm', mimeType: 'image/png', size: CHUNK_BYTES, count: 1, index: 0, sha256: '0'.repeat(64) };
  return sealChunk(keys, id, header, new Uint8Array(CHUNK_BYTES).fill(index));
}

describe("a file's chunks between the mirror and the server (pouchdb-server)", { timeout: 60_000 }, () => {
  const server = couchForMirrors();
  const remoteOf = (url: string) => new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
  /** The mirror replicating with its server, once its first round is over (closed with the server's mirrors). */
  const replicating = async (mirror: PouchMirror) => {
    server.mirrors.push(mirror);
    let synced = 0;
    mirror.replicate((state) => state.state === 'synced' && (synced += 1));
    await vi.waitFor(() => expect(synced).toBeGreaterThan(0), WAIT);
  };
  const twoChunks = async () => {
    const documents = [await bigChunk(0), await bigChunk(1)];
    return { documents, ids: documents.map((document) => document._id) };
  };

  it('putNew sends new documents to the server before the mirror holds them, with the revision the mirror then holds, whatever their size', async () => {
    const url = await server.couch.createDatabase();
    const remote = remoteOf(url);
    const asked: string[] = [];
    const sent: string[] = [];
    const revsDiff = (remote as unknown as { revsDiff: (...args: unknown[]) => Promise<unknown> }).revsDiff.bind(remote);
    const bulkDocs = remote.bulkDocs.bind(remote) as (...args: unknown[]) => Promise<unknown>;
    const put = remote.put.bind(remote) as (...args: unknown[]) => Promise<unknown>;
    const checkpoints: number[] = [];
    Object.assign(remote, {
      // The replication writes its checkpoint once a batch is over (after anything it sent).
      put: (document: { _id: string }, ...rest: unknown[]) => (document._id.startsWith('_local/') && checkpoints.push(asked.length), put(document, ...rest)),
      revsDiff: (diff: Record<string, string[]>, ...rest: unknown[]) => (asked.push(...Object.keys(diff)), revsDiff(diff, ...rest)),
      bulkDocs: (documents: EncryptedDocument[] | { docs: EncryptedDocument[] }, ...rest: unknown[]) => (sent.push(...(Array.isArray(documents) ? documents : documents.docs).map((document) => document._id)), bulkDocs(documents, ...rest)),
    });
    const mirror = mirrorOver(new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true }), remote, { countAfterMs: 0 });
    await replicating(mirror);

    const { documents, ids } = await twoChunks();
    expect((await mirror.putNew(documents)).every((error) => error === undefined)).toBe(true);
    for (const document of documents) {
      const here = await mirror.get(document._id);
      expect(here?.ct).toBe(document.ct);
      // On the server already when putNew is over, under the revision the mirror holds.
      expect((await mirror.remoteGet(document._id))?._rev).toBe(here?._rev);
    }
    // The replication, asking the server about them, finds them there and sends nothing again.
    await vi.waitFor(() => expect(asked.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort()), WAIT);
    const askedBy = asked.length;
    await vi.waitFor(() => expect(checkpoints.some((askedThen) => askedThen >= askedBy)).toBe(true), WAIT);
    expect(sent.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  });

  it("the server database's requests carry a long body (a file's chunks) as a Blob, with the credentials, and the server holds it whole", async () => {
    // The browser build of PouchDB the worker uses (it looks for `self` as it loads).
    Object.assign(globalThis, { self: globalThis.self ?? globalThis });
    const { default: BrowserPouchDB } = await import('pouchdb-browser');
    const { remoteDatabase } = await import('../../src/worker/sync/mirror/pouch-mirror');
    const url = await server.couch.createDatabase();
    const remote = remoteDatabase({ url, username: server.couch.username, password: server.couch.password });
    const fetched = vi.spyOn(BrowserPouchDB, 'fetch');
    try {
      const { documents } = await twoChunks();
      await remote.bulkDocs(documents.map((document) => ({ ...document, _rev: '1-abc' })), { new_edits: false });
      const post = fetched.mock.calls.find(([address]) => String(address).endsWith('/_bulk_docs'));
      expect(post?.[1]?.body).toBeInstanceOf(Blob);
      expect(new Headers(post?.[1]?.headers).get('authorization')).toMatch(/^Basic /);
      expect((await remoteOf(url).get(documents[1]!._id)).ct).toBe(documents[1]!.ct);
      // A small request stays a string.
      await remote.put({ _id: 'small', e: 1, ct: 'abc' });
      expect(typeof fetched.mock.calls.at(-1)?.[1]?.body).toBe('string');
    } finally {
      fetched.mockRestore();
    }
  });

  it('takeFromServer hands on the documents the server holds and then those written after, once each, and keeps them in the mirror', async () => {
    const url = await server.couch.createDatabase();
    const remote = remoteOf(url);
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory' });
    const [first, second, other] = [await bigChunk(0), await bigChunk(1), await bigChunk(2)];
    const written = await remote.put(first!);
    const taken: string[] = [];
    const taking = takeFromServer(local, remote, [first!._id, second!._id], (documents) => taken.push(...documents.map((document) => document._id)));
    try {
      await vi.waitFor(() => expect(taken).toEqual([first!._id]), WAIT);
      await remote.put(other!);
      await remote.put(second!);
      await vi.waitFor(() => expect(taken).toEqual([first!._id, second!._id]), WAIT);
      await vi.waitFor(async () => expect((await local.get(first!._id))._rev).toBe(written.rev), WAIT);
      await expect(local.get(other!._id)).rejects.toMatchObject({ status: 404 });
    } finally {
      taking.cancel();
    }
  });

  it("the live replication does not pull again what is being taken from the server: its question waits until it is in the mirror", async () => {
    const url = await server.couch.createDatabase();
    const remote = remoteOf(url);
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });
    // The mirror's writes are slow (IndexedDB on a loaded machine): the replication's question comes before they are over.
    const write = local.bulkDocs.bind(local);
    Object.assign(local, { bulkDocs: async (...args: Parameters<typeof write>) => (await new Promise((resolve) => setTimeout(resolve, 500)), write(...args)) });
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    // What the mirror tells the replication it lacks: what it then pulls.
    const answered: string[] = [];
    const pulled: string[] = [];
    const revsDiff = local.revsDiff.bind(local);
    local.revsDiff = async (request, ...rest) => {
      const missing = await revsDiff(request, ...rest);
      answered.push(...Object.keys(request));
      pulled.push(...Object.keys(missing));
      return missing;
    };
    await replicating(mirror);

    const { documents, ids } = await twoChunks();
    const taken: string[] = [];
    const taking = mirror.takeFromServer(ids, (arrived) => taken.push(...arrived.map((document) => document._id)));
    try {
      await remoteOf(url).bulkDocs(documents.map((document, index) => ({ ...document, _rev: `1-${'ab'.repeat(15)}0${index}` })), { new_edits: false });
      await vi.waitFor(() => expect(taken.sort()).toEqual([...ids].sort()), WAIT);
      await vi.waitFor(async () => expect((await mirror.getMany(ids)).every(Boolean)).toBe(true), WAIT);
      // The replication heard of them too, and asked the mirror about them.
      await vi.waitFor(() => expect(ids.every((id) => answered.includes(id))).toBe(true), WAIT);
      expect(pulled.filter((id) => ids.includes(id))).toEqual([]);
    } finally {
      taking.cancel();
    }
  });
});

/** A message with one image (`a1`, of `bytes`) in conversation c1, and a laptop host that holds the file and the message. */
function photoOnLaptop(bytes: Uint8Array): { message: Message; host: SyncEngineHost } {
  const message = { id: 'm1', conversationId: 'c1', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'A photo' }], status: 'complete', createdAt: 1, updatedAt: 1, attachments: [{ id: 'a1', name: 'photo.png', mimeType: 'image/png', size: bytes.length, kind: 'image' }] } as unknown as Message;
  const host = {
    readAttachment: async (id: string) => (id === 'a1' ? { id, conversationId: 'c1', messageId: 'm1', blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }) } : undefined),
    getMessages: async (ids: string[]) => ids.map((id) => (id === 'm1' ? message : undefined)),
    now: () => 1,
  } as unknown as SyncEngineHost;
  return { message, host };
}

describe('a file sent with a message (simulated devices)', { timeout: 120_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the receiving device takes a file's other chunks from the server once its first chunk arrived, not when its replication brings them", async () => {
    const { replicator, laptop, phone, phoneMirror } = await simulatedDevices(21);
    phoneMirror.takes = true;
    await laptop.send({ type: 'settings.update', script: script([{ text: 'Seen.' }]) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    const bytes = new Uint8Array(2 * CHUNK_BYTES + 10).map((_, index) => index & 0xff);
    const { message } = await laptop.send({ type: 'message.send', conversationId, text: 'A photo', attachments: [{ name: 'photo.png', type: 'image/png', blob: new Blob([bytes], { type: 'image/png' }) }] });
    await waitForRunState(laptop, conversationId, ['idle']);
    const photo = message!.attachments![0]!;
    const keys = await testKeys();
    // The replicator never brings the phone chunks 1 and 2.
    replicator.holdBack = { mirror: phoneMirror, ids: new Set([await chunkId(keys, photo.id, 1), await chunkId(keys, photo.id, 2)]) };
    await replicator.settle(async () => (await phone.host.store.readAttachment(photo.id)) !== undefined);
    const stored = await phone.host.store.readAttachment(photo.id);
    expect(Buffer.from(await stored!.blob.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("a file asked for whose first chunk is not here is taken from the server as soon as it is there, and the rest with it", async () => {
    const { replicator, laptop, laptopMirror, phone, phoneMirror } = await simulatedDevices(23);
    phoneMirror.takes = true;
    await laptop.send({ type: 'settings.update', script: script([{ text: 'Seen.' }]) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    const bytes = new Uint8Array(2 * CHUNK_BYTES + 10).map((_, index) => (index * 3) & 0xff);
    // The laptop's chunk writes wait until the phone has asked for the file.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const putNew = laptopMirror.putNew.bind(laptopMirror);
    laptopMirror.putNew = async (documents) => {
      if (documents.some((document) => document.e === 2)) await released;
      return putNew(documents);
    };
    const { message } = await laptop.send({ type: 'message.send', conversationId, text: 'A photo', attachments: [{ name: 'photo.png', type: 'image/png', blob: new Blob([bytes], { type: 'image/png' }) }] });
    const photo = message!.attachments![0]!;
    const keys = await testKeys();
    // The replicator never brings the phone any of the file's chunks: only the phone's own taking can.
    replicator.holdBack = { mirror: phoneMirror, ids: new Set(await Promise.all([0, 1, 2].map((index) => chunkId(keys, photo.id, index)))) };
    await replicator.settle(async () => (await phone.host.store.getMessage(message!.id)) !== undefined);
    await expect(phone.send({ type: 'attachment.read', attachmentId: photo.id })).rejects.toMatchObject({ reason: 'attachment_syncing' });
    release();
    await replicator.settle(async () => (await phone.host.store.readAttachment(photo.id)) !== undefined);
    const stored = await phone.host.store.readAttachment(photo.id);
    expect(Buffer.from(await stored!.blob.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('takes at most two files from the server at once (each holds a connection open); the others come through the replication', async () => {
    const { replicator, laptop, phone, phoneMirror } = await simulatedDevices(22);
    phoneMirror.takes = true;
    // A server that hands nothing yet: each taking stays open until it is cancelled.
    let open = 0;
    let most = 0;
    phoneMirror.takeFromServer = () => {
      open += 1;
      most = Math.max(most, open);
      let cancelled = false;
      return {
        cancel() {
          if (!cancelled) open -= 1;
          cancelled = true;
        },
      };
    };
    await laptop.send({ type: 'settings.update', script: script([{ text: 'Seen.' }]) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    const files = [1, 2, 3, 4].map((fill) => new Uint8Array(CHUNK_BYTES + 10).fill(fill));
    const { message } = await laptop.send({ type: 'message.send', conversationId, text: 'Photos', attachments: files.map((bytes, index) => ({ name: `photo-${index}.png`, type: 'image/png', blob: new Blob([bytes], { type: 'image/png' }) })) });
    await waitForRunState(laptop, conversationId, ['idle']);
    // Only the first chunk of each file comes through the replication until every file has begun arriving.
    const keys = await testKeys();
    const ids = (index: number) => Promise.all(message!.attachments!.map((meta) => chunkId(keys, meta.id, index)));
    const [first, second] = [await ids(0), await ids(1)];
    replicator.holdBack = { mirror: phoneMirror, ids: new Set(second) };
    await replicator.settle(async () => first.every((id) => phoneMirror.local.documents.has(id)));
    expect(most).toBe(2);
    replicator.holdBack = undefined;
    await replicator.settle(async () => (await Promise.all(message!.attachments!.map((meta) => phone.host.store.readAttachment(meta.id)))).every(Boolean));
    expect(open).toBe(0);
  });

  it("a message with files is pushed at once, not after the push queue's delay, and its files' chunks follow its segment", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the push queue's delay never ends
    const mirror = new SimulatedMirror(new SimulatedServer());
    const bytes = new Uint8Array(CHUNK_BYTES + 5).fill(7);
    const { message, host } = photoOnLaptop(bytes);
    const engine = new SyncEngine(mirror, await testKeys(), LAPTOP, host);
    engine.noteChange({ messages: [message] });
    const chunks = () => [...mirror.local.documents.values()].filter((stored) => stored.document.e === 2).length;
    for (const started = Date.now(); chunks() < 2 && Date.now() - started < 20_000; ) await new Promise((resolve) => setImmediate(resolve));
    expect(chunks()).toBe(2);
    // The message's segment was written first: the other device shows the message before the bytes fill its pull.
    const segment = await segmentId(await testKeys(), { conversationId: 'c1', index: 0 });
    const written = mirror.local.log.map((entry) => entry.id);
    expect(written.indexOf(segment)).toBe(0);
    engine.stop();
  });

  it("a file's chunks are written four writes at a time: the next are sent while the ones before are still being written", async () => {
    const mirror = new SimulatedMirror(new SimulatedServer());
    let open = 0;
    let most = 0;
    // Chunk writes wait until the test lets them through.
    const waiting: Array<() => void> = [];
    const putNew = mirror.putNew.bind(mirror);
    mirror.putNew = async (documents) => {
      if (!documents.some((document) => document.e === 2)) return putNew(documents);
      open += 1;
      most = Math.max(most, open);
      await new Promise<void>((resolve) => waiting.push(resolve));
      open -= 1;
      return putNew(documents);
    };
    const bytes = new Uint8Array(11 * CHUNK_BYTES + 3).map((_, index) => index & 0xff);
    const { message, host } = photoOnLaptop(bytes);
    const engine = new SyncEngine(mirror, await testKeys(), LAPTOP, host);
    engine.noteChange({ messages: [message] });
    await vi.waitFor(() => expect(open).toBe(4), WAIT);
    // The fifth write is sealed meanwhile, and waits for one of the four to end.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(open).toBe(4);
    const chunks = () => [...mirror.local.documents.values()].filter((stored) => stored.document.e === 2);
    await vi.waitFor(() => {
      for (const resolve of waiting.splice(0)) resolve();
      expect(chunks()).toHaveLength(12);
    }, WAIT);
    expect(most).toBe(4);
    engine.stop();
  });

  it("a message's segment reaches the mirror while its file's chunks are still being written; the writes are pending until they are in", async () => {
    const mirror = new SimulatedMirror(new SimulatedServer());
    // Chunk writes wait until the test lets them through; every other write goes at once.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const putNew = mirror.putNew.bind(mirror);
    mirror.putNew = async (documents) => {
      if (documents.some((document) => document.e === 2)) await released;
      return putNew(documents);
    };
    const bytes = new Uint8Array(CHUNK_BYTES + 5).fill(9);
    const { message, host } = photoOnLaptop(bytes);
    const engine = new SyncEngine(mirror, await testKeys(), LAPTOP, host);
    await engine.claim('c1');
    engine.noteChange({ messages: [message] });
    const segments = () => [...mirror.local.documents.values()].filter((stored) => stored.document.e !== 2 && stored.document._id !== undefined).length;
    const chunks = () => [...mirror.local.documents.values()].filter((stored) => stored.document.e === 2).length;
    const before = segments();
    await vi.waitFor(() => expect(segments()).toBeGreaterThan(before), WAIT);
    expect(chunks()).toBe(0);
    expect(engine.writesPending).toBe(true);
    release();
    await vi.waitFor(() => expect(chunks()).toBe(2), WAIT);
    await vi.waitFor(() => expect(engine.writesPending).toBe(false), WAIT);
    engine.stop();
  });
});

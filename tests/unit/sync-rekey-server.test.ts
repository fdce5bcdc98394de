import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { memoryLocks, openTab, uniqueDatabaseName, type TestTab } from './host-harness';
import { LAPTOP, PHONE, testKeys } from './sync-simulation';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver, type PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { rekeyMirror } from '../../src/worker/sync/mirror/rekey-mirror';
import { documentId, newKeyDocument, type SyncKeys } from '../../src/worker/sync/documents/sync-crypto';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import type { Message } from '../../src/schema/records';
import { couchForMirrors } from './couch-for-mirrors';

// README, "Sync between your devices": a server set up again under another key by a new device, and two old devices
// that join it, each sealing again everything its mirror holds — its own conversations and its copies of the other's.
// The mirrors are the app's (mirrorOver) over PouchDB's in-memory adapter, replicating live with pouchdb-server.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const TABLET = { id: 'device-tablet', name: 'Tablet' };
const WAIT = { timeout: 30_000, interval: 100 };

describe('two old devices joining a server set up again under another key (sync, pouchdb-server)', { timeout: 120_000 }, () => {
  const server = couchForMirrors();

  /** A device's mirror of `url`: an in-memory PouchDB, replicating live with it unless `live` is false. */
  function mirrorOf(url: string, { live = true } = {}): PouchMirror {
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    if (live) mirror.replicate(() => undefined);
    server.mirrors.push(mirror);
    return mirror;
  }

  /** What `rejoin` does: the mirror sealed again under the new keys into a new one, and sync started over it. */
  async function rejoin(tab: TestTab, old: { mirror: PouchMirror; keys: SyncKeys }, url: string, keys: SyncKeys, device: typeof LAPTOP): Promise<PouchMirror> {
    const next = mirrorOf(url);
    next.stopReplication();
    await rekeyMirror(old, { mirror: next, keys }, device.id);
    await tab.host.sync.detach();
    await old.mirror.destroy();
    await tab.host.sync.attach(next, keys, device);
    next.replicate(() => undefined);
    return next;
  }

  const titles = async (tab: TestTab) => new Set((await tab.host.store.listConversations()).map((conversation) => conversation.title));
  const named = async (tab: TestTab, title: string) => {
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'conversation.rename', conversationId: id, title });
    return id;
  };

  it('every device ends with every conversation, under the title its runner gave it last', async () => {
    const oldUrl = await server.couch.createDatabase();
    const oldKeys = await testKeys();
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const laptopOld = mirrorOf(oldUrl);
    const phoneOld = mirrorOf(oldUrl);
    const laptopEngine = await laptop.host.sync.attach(laptopOld, oldKeys, LAPTOP);
    await phone.host.sync.attach(phoneOld, oldKeys, PHONE);
    const lisbon = await named(laptop, 'Lisbon');
    // The phone's new conversation reaches the laptop as its first record (untitled, no message yet)...
    const { id: porto } = await phone.send({ type: 'conversation.create' });
    await expect.poll(async () => (await laptop.host.store.getConversation(porto)) !== undefined && (await phone.host.store.getConversation(lisbon))?.title === 'Lisbon', WAIT).toBe(true);
    // ...and the phone goes away before its title does; the laptop starts another conversation meanwhile.
    phoneOld.stopReplication();
    await phone.send({ type: 'conversation.rename', conversationId: porto, title: 'Porto' });
    await named(laptop, 'Braga');
    await laptopEngine.flush();

    // The server loses everything; a tablet sets it up again with the same passphrase under another salt, and writes.
    const newUrl = await server.couch.createDatabase();
    const newKeys = (await newKeyDocument('correct horse battery staple', 100_000)).keys;
    const tablet = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tablet.host.sync.attach(mirrorOf(newUrl), newKeys, TABLET);
    await named(tablet, 'Kyoto');

    // The laptop joins first, and the tablet has what it uploaded before the phone joins.
    await rejoin(laptop, { mirror: laptopOld, keys: oldKeys }, newUrl, newKeys, LAPTOP);
    await expect.poll(async () => (await titles(tablet)).has('Braga'), WAIT).toBe(true);
    await rejoin(phone, { mirror: phoneOld, keys: oldKeys }, newUrl, newKeys, PHONE);

    const everything = ['Braga', 'Kyoto', 'Lisbon', 'Porto'];
    for (const tab of [tablet, laptop, phone]) await expect.poll(async () => [...(await titles(tab))].sort(), WAIT).toEqual(everything);
    // Who runs what travelled: the phone's conversation still runs on the phone.
    expect(tablet.host.sync.runnerElsewhere(porto)).toEqual(PHONE);
    expect(laptop.host.sync.runnerElsewhere(porto)).toEqual(PHONE);
  });

  it('the copy its writer seals again wins over an older one another device seals again, whatever the revision ids', async () => {
    const oldKeys = await testKeys();
    const newKeys = (await newKeyDocument('correct horse battery staple', 100_000)).keys;
    const newUrl = await server.couch.createDatabase();
    // The phone's reply, twenty times: the laptop server.mirrors it as it was while it streamed, the phone as it ended.
    const reply = (seq: number, text: string, updatedAt: number): Message => ({ id: `reply-${seq}`, conversationId: 'porto', seq, role: 'assistant', blocks: [{ type: 'text', text }], status: updatedAt === 1 ? 'streaming' : 'complete', createdAt: 0, updatedAt });
    // Each old mirror as it was left (never replicated here), holding the reply as that device last received it.
    const holding = async (text: string, updatedAt: number) => {
      const mirror = mirrorOf(newUrl, { live: false });
      const writes = await Promise.all(Array.from({ length: 20 }, async (_, seq) => ({ id: await documentId(oldKeys, 'message', `reply-${seq}`), payload: { kind: 'message' as const, message: reply(seq, text, updatedAt), writer: PHONE.id, epoch: 0 } })));
      expect((await new SealedDocuments(mirror, oldKeys).writeMany(writes)).filter(Boolean)).toEqual([]);
      return mirror;
    };
    const [laptopOld, phoneOld] = [await holding('First', 1), await holding('First reply.', 2)];
    const [laptopNew, phoneNew] = [mirrorOf(newUrl, { live: false }), mirrorOf(newUrl, { live: false })];
    await rekeyMirror({ mirror: laptopOld, keys: oldKeys }, { mirror: laptopNew, keys: newKeys }, LAPTOP.id);
    await rekeyMirror({ mirror: phoneOld, keys: oldKeys }, { mirror: phoneNew, keys: newKeys }, PHONE.id);
    await Promise.all([laptopNew.uploadAll(), phoneNew.uploadAll()]);

    // Both copies of each reply are on the server; the one CouchDB shows (and replicates as the winner) is the phone's.
    const onServer = (await server.couch.allDocuments(newUrl)) as unknown as Array<EncryptedDocument & { _conflicts?: string[] }>;
    expect(onServer).toHaveLength(20);
    expect(onServer.every((document) => document._conflicts?.length === 1)).toBe(true);
    const opened = new SealedDocuments(phoneNew, newKeys);
    const texts: unknown[] = [];
    for (const document of onServer) {
      const payload = await opened.read(document);
      texts.push(payload?.kind === 'message' ? payload.message.blocks : undefined);
    }
    expect(texts).toEqual(onServer.map(() => [{ type: 'text', text: 'First reply.' }]));
  });
});


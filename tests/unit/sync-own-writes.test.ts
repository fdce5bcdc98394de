import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import { LAPTOP, SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';
import { documentId, seal } from '../../src/worker/sync/documents/sync-crypto';

// An initial upload ("Turn on sync" over a history). "Never open a document the device itself just wrote": the
// mirror's change feed hands on every change, this device's own writes among them. Opening each again (AES-GCM, JSON,
// the schema) only to find this device's id as its writer doubled the worker's time of an upload. Counted here as
// AES-GCM decryptions under the sync key. And the records are read in a transaction per chunk, not one per message.

function exportOf(conversations: number, perConversation: number, now = 1_700_000_000_000) {
  return {
    format: 'parley-export',
    version: 1,
    exportedAt: now,
    conversations: Array.from({ length: conversations }, (_, index) => {
      const id = `own-${index}`;
      const messages = Array.from({ length: perConversation }, (_, seq) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text: `Message ${seq} of ${index}` }], status: 'complete', createdAt: now + seq, updatedAt: now + seq }));
      return { conversation: { id, title: `Conversation ${index}`, createdAt: now, updatedAt: now + perConversation, runState: 'idle', completedSteps: 0 }, messages };
    }),
  };
}

/** Waits until the engine has applied every change the mirror holds. */
async function feedDrained(mirror: SimulatedMirror): Promise<void> {
  for (;;) {
    const last = mirror.local.log.at(-1)?.seq;
    if (last !== undefined && mirror.applied === Number(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

afterEach(() => vi.restoreAllMocks());

describe("the device's own writes, handed back by the mirror (sync)", { timeout: 60_000 }, () => {
  it('are not opened again; a document another device wrote still is', async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const opened: string[] = [];
    const decrypt = crypto.subtle.decrypt.bind(crypto.subtle);
    vi.spyOn(crypto.subtle, 'decrypt').mockImplementation((algorithm, key, data) => {
      if (key === keys.content) opened.push('opened');
      return decrypt(algorithm, key, data);
    });
    // An initial upload: a history, then "Turn on sync". 3 conversations, their runner documents and 120 messages (in
    // 3 segments: 40 short messages each) are written by this device and all handed back, as is a setting.
    expect(await laptop.send({ type: 'conversation.import', data: exportOf(3, 40) })).toMatchObject({ imported: 3 });
    await laptop.host.sync.attach(mirror, keys, LAPTOP);
    // A profile set up here travels as a setting document of this device's own.
    await laptop.send({ type: 'profiles.save', profile: { name: 'Work', kind: 'openai-compatible', baseUrl: 'https://llm.work.example/v1', model: 'gpt-work', apiKey: 'sk-laptop' } });
    await vi.waitFor(() => expect([...mirror.local.documents.values()].filter((stored) => stored.document.s)).toHaveLength(1), { timeout: 30_000, interval: 20 });
    await vi.waitFor(() => expect(mirror.local.documents.size).toBeGreaterThanOrEqual(3 + 3 + 3 + 1), { timeout: 30_000, interval: 20 });
    await feedDrained(mirror);
    expect(opened).toEqual([]);

    // Another device's message for a conversation it runs arrives: that one is opened (and stored).
    const message = { id: 'elsewhere-m0', conversationId: 'elsewhere', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'From the phone' }], status: 'complete', createdAt: 1, updatedAt: 1 };
    const runner = { conversationId: 'elsewhere', device: { id: 'device-phone', name: 'Phone' }, epoch: 0, since: 1 };
    mirror.local.receive({ document: { _id: await documentId(keys, 'runner', 'elsewhere'), _rev: '1-a', e: 1, ...(await seal(keys, JSON.stringify({ kind: 'runner', runner }))) }, generation: 1, hash: 'a' });
    mirror.local.receive({ document: { _id: await documentId(keys, 'message', message.id), _rev: '1-b', e: 1, ...(await seal(keys, JSON.stringify({ kind: 'message', message, writer: 'device-phone', epoch: 0 }))) }, generation: 1, hash: 'b' });
    await feedDrained(mirror);
    expect(opened).toHaveLength(2);
    laptop.close();
  });

  it('cost no write of the position the next start follows from: the next news keeps it', async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const kept: unknown[] = [];
    const setLocal = mirror.setLocal.bind(mirror);
    mirror.setLocal = async (key, value) => {
      if (key === 'since') kept.push(value);
      return setLocal(key, value);
    };
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await laptop.host.sync.attach(mirror, keys, LAPTOP);
    // A round of this device's: a conversation, renamed; its records and runner document are handed back.
    const { id } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'conversation.rename', conversationId: id, title: 'Lisbon' });
    await vi.waitFor(() => expect(mirror.local.documents.size).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 20 });
    await feedDrained(mirror);
    expect(kept).toEqual([]);

    // Another device's document arrives: applied, and the position kept after it.
    const runner = { conversationId: 'elsewhere', device: { id: 'device-phone', name: 'Phone' }, epoch: 0, since: 1 };
    mirror.local.receive({ document: { _id: await documentId(keys, 'runner', 'elsewhere'), _rev: '1-a', e: 1, ...(await seal(keys, JSON.stringify({ kind: 'runner', runner }))) }, generation: 1, hash: 'a' });
    await feedDrained(mirror);
    expect(kept).toEqual([mirror.local.log.at(-1)!.seq]);
    expect(laptop.host.sync.runnerElsewhere('elsewhere')).toEqual({ id: 'device-phone', name: 'Phone' });
    laptop.close();
  });

  it('reads the messages it seals a chunk at a time, not in a transaction each', async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    expect(await laptop.send({ type: 'conversation.import', data: exportOf(2, 150) })).toMatchObject({ imported: 2 });
    const reads: string[] = [];
    const transaction = IDBDatabase.prototype.transaction;
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores: string | Iterable<string>, mode?: IDBTransactionMode) {
      if ((typeof stores === 'string' ? [stores] : [...stores]).includes('messages') && mode !== 'readwrite') reads.push('read');
      return transaction.call(this, stores, mode);
    });
    await laptop.host.sync.attach(mirror, keys, LAPTOP);
    await vi.waitFor(() => expect(mirror.local.documents.size).toBeGreaterThanOrEqual(2 + 2 + 2), { timeout: 30_000, interval: 20 });
    await feedDrained(mirror);
    // 300 messages: each conversation's messages listed once, then read for their segments a thousand at a time (a few
    // more when the first push starts while the list is still being read).
    expect(reads.length).toBeLessThan(20);
    laptop.close();
  });
});

import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { LAPTOP, PHONE, randomFrom, SimulatedMirror, SimulatedReplicator, SimulatedServer, simulatedDevices, testKeys } from './sync-simulation';
import type { Message } from '../../src/schema/records';
import type { Runner, SyncPayload } from '../../src/schema/sync/sync';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { segmentId } from '../../src/worker/sync/documents/message-segments';
import { documentId, open, seal } from '../../src/worker/sync/documents/sync-crypto';

// A conversation's messages travel packed (docs/architecture.md, "Sync"): one sealed document per segment of a
// conversation, written only by its runner, the segment a message is in rewritten as the message changes. Documents the
// build before wrote, one per message, are still read; a device on this build writes its conversations as segments.

const TABLET = { id: 'device-tablet', name: 'Tablet' };

async function payloadOf(document: EncryptedDocument): Promise<SyncPayload | undefined> {
  const body = document.e === 3 ? document.m : document.ct && document.iv ? { iv: document.iv, ct: document.ct } : undefined;
  return body ? (JSON.parse(await open(await testKeys(), body)) as SyncPayload) : undefined;
}

/** What a store of documents (the server, a mirror) holds, opened as only the devices can. */
async function payloadsIn(documents: Iterable<{ document: EncryptedDocument }>): Promise<SyncPayload[]> {
  const found: SyncPayload[] = [];
  for (const { document } of documents) {
    const payload = document._deleted ? undefined : await payloadOf(document);
    if (payload) found.push(payload);
  }
  return found;
}

/** A message of a conversation; `later` ms after it was made, it was last changed. */
function message(conversationId: string, seq: number, text: string, later = 0): Message {
  const createdAt = 1_700_000_000_000 + seq;
  return { id: `${conversationId}-m${seq}`, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text }], status: 'complete', createdAt, updatedAt: createdAt + later };
}

function exportOf(conversationId: string, messages: Message[]) {
  const now = 1_700_000_000_000;
  return { format: 'parley-export', version: 1, exportedAt: now, conversations: [{ conversation: { id: conversationId, title: `About ${conversationId}`, createdAt: now, updatedAt: now, runState: 'idle', completedSteps: 0 }, messages }] };
}

const textOf = (found: Message | undefined) => found?.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');

/** A device that syncs later, over the same server: what the others wrote reaches it. */
async function laterDevice(server: SimulatedServer, seed: number, device = TABLET) {
  const tablet = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  const mirror = new SimulatedMirror(server);
  const engine = await tablet.host.sync.attach(mirror, await testKeys(), device);
  return { tablet, mirror, engine, replicator: new SimulatedReplicator(server, [mirror], randomFrom(seed)) };
}

const sameMessages = async (a: TestTab, b: TestTab, conversationId: string) => isDeepStrictEqual(await a.host.store.allMessages(conversationId), await b.host.store.allMessages(conversationId));

describe('messages travel packed in segments (sync)', { timeout: 120_000 }, () => {
  it('a streaming reply rewrites its segment, one document, and arrives whole on the other device', async () => {
    const slow = script([{ text: 'x'.repeat(300) }], { chunkDelayMs: 5, chunkSize: 1 });
    const { server, laptop, phone, laptopMirror, replicator } = await simulatedDevices(71, { prepare: async (laptop) => void (await laptop.send({ type: 'settings.update', script: slow })) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'message.send', conversationId, text: 'go' });
    const first = await segmentId(await testKeys(), { conversationId, index: 0 });
    // While the reply streams, the phone sees it grow: the one segment's later revisions.
    await replicator.settle(async () => (textOf((await phone.host.store.allMessages(conversationId)).find((found) => found.role === 'assistant'))?.length ?? 0) > 0);
    await waitForRunState(laptop, conversationId, ['idle'], 20_000);
    await replicator.settle(async () => sameMessages(laptop, phone, conversationId));
    expect(textOf((await phone.host.store.allMessages(conversationId))[1])).toBe('x'.repeat(300));
    expect(laptopMirror.local.documents.get(first)!.generation).toBeGreaterThan(2);
    const payloads = await payloadsIn(server.documents.values());
    expect(payloads.filter((payload) => payload.kind === 'message')).toEqual([]);
    const segments = payloads.filter((payload) => payload.kind === 'segment');
    expect(segments.map((segment) => [segment.index, segment.messages.length])).toEqual([[0, 2]]);
  });

  it('a long conversation split across segments reaches another device complete and in order, in any order of arrival', async () => {
    // 150 short messages (about 28 KB as JSON), then 6 of 30,000 characters: a segment closes at 64 KB of plaintext,
    // however many messages that is (the build before also closed one at 32 messages).
    const short = Array.from({ length: 150 }, (_, seq) => message('long', seq, `Message ${seq}`));
    const messages = [...short, ...Array.from({ length: 6 }, (_, offset) => message('long', 150 + offset, `${offset}`.repeat(30_000)))];
    expect(short.reduce((sum, found) => sum + JSON.stringify(found).length, 0)).toBeLessThan(64 * 1024 - 30_200);
    for (const seed of [81, 82, 83]) {
      const { server, laptop, phone, replicator } = await simulatedDevices(seed, { prepare: async (laptop) => void (await laptop.send({ type: 'conversation.import', data: exportOf('long', messages) })) });
      await replicator.settle(async () => (await phone.host.store.allMessages('long')).length === messages.length);
      expect(await phone.host.store.allMessages('long')).toEqual(await laptop.host.store.allMessages('long'));
      const segments = (await payloadsIn(server.documents.values())).flatMap((payload) => (payload.kind === 'segment' ? [payload] : [])).sort((a, b) => a.index - b.index);
      expect(segments.map((segment) => segment.messages.map((held) => held.seq))).toEqual([[...short.map((found) => found.seq), 150], [151, 152], [153, 154], [155]]);
    }
  });

  it('a message another runner packed keeps its segment, and a take-over continues the segment without dropping it', async () => {
    const chat = script([{ text: 'Sure.' }, { text: 'Done.' }]);
    const { laptop, phone, replicator, server } = await simulatedDevices(91, {
      prepare: async (laptop, phone) => {
        await laptop.send({ type: 'settings.update', script: chat });
        await phone.send({ type: 'settings.update', script: chat });
      },
    });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'message.send', conversationId, text: 'first' });
    await waitForRunState(laptop, conversationId, ['idle'], 20_000);
    await replicator.settle(async () => (await phone.host.store.allMessages(conversationId)).length === 2);
    await phone.send({ type: 'conversation.takeOver', conversationId });
    await phone.send({ type: 'message.send', conversationId, text: 'second' });
    await waitForRunState(phone, conversationId, ['idle'], 20_000);
    await replicator.settle(async () => (await laptop.host.store.allMessages(conversationId)).length === 4);
    // One segment, rewritten by the phone, holds the laptop's two messages and its own.
    const segments = (await payloadsIn(server.documents.values())).flatMap((payload) => (payload.kind === 'segment' ? [payload] : []));
    expect(segments.map((segment) => [segment.index, segment.writer, segment.messages.length])).toEqual([[0, PHONE.id, 4]]);
    const later = await laterDevice(server, 92);
    await later.replicator.settle(async () => sameMessages(later.tablet, phone, conversationId));
  });
});

describe('segments packed by the build before (32 messages at most)', { timeout: 120_000 }, () => {
  it('are read as they are, and a device of this build that takes the conversation over continues the last one', async () => {
    const keys = await testKeys();
    const server = new SimulatedServer();
    // The phone ran "packed" on the build before: 64 messages in two segments of 32, the second full under its limits.
    const messages = Array.from({ length: 64 }, (_, seq) => message('packed', seq, `Packed message ${seq}`));
    const runner: Runner = { conversationId: 'packed', device: PHONE, epoch: 0, since: 1 };
    const conversation = { id: 'packed', title: 'Packed', createdAt: 1, updatedAt: 2, runState: 'idle' as const, completedSteps: 0 };
    server.put(await sealedDocument(await documentId(keys, 'runner', 'packed'), { kind: 'runner', runner }));
    server.put(await sealedDocument(await documentId(keys, 'conversation', 'packed'), { kind: 'conversation', conversation, writer: PHONE.id, epoch: 0 }));
    for (const [index, start] of [0, 32].entries()) server.put(await segmentDocument('packed', index, messages.slice(start, start + 32), PHONE.id));

    const laptop = await laterDevice(server, 131, LAPTOP);
    await laptop.tablet.send({ type: 'settings.update', script: script([{ text: 'Continued here.' }]) });
    await laptop.replicator.settle(async () => (await laptop.tablet.host.store.allMessages('packed')).length === 64);
    expect((await laptop.tablet.host.store.allMessages('packed')).map((found) => found.id)).toEqual(messages.map((found) => found.id));
    await laptop.tablet.send({ type: 'conversation.takeOver', conversationId: 'packed' });
    await laptop.tablet.send({ type: 'message.send', conversationId: 'packed', text: 'and now?' });
    await waitForRunState(laptop.tablet, 'packed', ['idle'], 20_000);
    const segmentsOnServer = async () => (await payloadsIn(server.documents.values())).flatMap((payload) => (payload.kind === 'segment' ? [payload] : [])).sort((a, b) => a.index - b.index);
    await laptop.replicator.settle(async () => isDeepStrictEqual((await segmentsOnServer()).flatMap((segment) => segment.messages), await laptop.tablet.host.store.allMessages('packed')));
    // Each message keeps its segment (the new runner writes both again, as its own); the last, closed at 32 under the
    // old limits, is continued under these: it holds its 32 and the 2 new messages.
    const segments = await segmentsOnServer();
    expect(segments.map((segment) => segment.messages.map((held) => held.seq))).toEqual([messages.slice(0, 32).map((found) => found.seq), Array.from({ length: 34 }, (_, seq) => 32 + seq)]);
    expect(laptop.engine.refused()).toBeUndefined();
    const later = await laterDevice(server, 132);
    await later.replicator.settle(async () => sameMessages(later.tablet, laptop.tablet, 'packed'));
    expect(await later.tablet.host.store.allMessages('packed')).toHaveLength(66);
  });
});

/** A document as the build before segments wrote it: one message, sealed as format 1. */
async function messageDocument(found: Message, writer: string, epoch = 0): Promise<EncryptedDocument> {
  const keys = await testKeys();
  return { _id: await documentId(keys, 'message', found.id), e: 1, ...(await seal(keys, JSON.stringify({ kind: 'message', message: found, writer, epoch } satisfies SyncPayload))) };
}

async function segmentDocument(conversationId: string, index: number, messages: Message[], writer: string, epoch = 0): Promise<EncryptedDocument> {
  const keys = await testKeys();
  return { _id: await segmentId(keys, { conversationId, index }), e: 3, m: await seal(keys, JSON.stringify({ kind: 'segment', conversationId, index, messages, writer, epoch } satisfies SyncPayload)) };
}

async function sealedDocument(id: string, payload: SyncPayload): Promise<EncryptedDocument> {
  return { _id: id, e: 1, ...(await seal(await testKeys(), JSON.stringify(payload))) };
}

describe('documents of the build before segments (sync)', { timeout: 120_000 }, () => {
  it('a message document of the build before is applied beside segments: the newer copy of a message wins, in any order', async () => {
    const keys = await testKeys();
    const runner: Runner = { conversationId: 'mixed', device: PHONE, epoch: 0, since: 1 };
    for (const seed of [101, 102, 103, 104]) {
      const server = new SimulatedServer();
      // The phone wrote m0 and m1 on the build before, then m1 again (finished) and m2 in a segment on this build.
      server.put(await sealedDocument(await documentId(keys, 'runner', 'mixed'), { kind: 'runner', runner }));
      server.put(await messageDocument(message('mixed', 0, 'hello'), PHONE.id));
      server.put(await messageDocument(message('mixed', 1, 'draft', 10), PHONE.id));
      server.put(await segmentDocument('mixed', 0, [message('mixed', 1, 'final', 20), message('mixed', 2, 'more')], PHONE.id));
      const later = await laterDevice(server, seed);
      await later.replicator.settle(async () => (await later.tablet.host.store.allMessages('mixed')).length === 3);
      const stored = await later.tablet.host.store.allMessages('mixed');
      expect(stored.map(textOf)).toEqual(['hello', 'final', 'more']);
      expect(later.engine.refused()).toBeUndefined();
    }
  });

  it('an old mirror (one document per message) is taken on by this build without loss: its conversations are written as segments, its message documents deleted', async () => {
    const keys = await testKeys();
    const server = new SimulatedServer();
    const laptopMirror = new SimulatedMirror(server);
    const laptopDatabase = uniqueDatabaseName();
    const laptop = await openTab({ databaseName: laptopDatabase, locks: memoryLocks() });
    const messages = Array.from({ length: 40 }, (_, seq) => message('old', seq, `Old message ${seq}`));
    await laptop.send({ type: 'conversation.import', data: exportOf('old', messages) });
    const conversation = (await laptop.host.store.getConversation('old'))!;
    // What the build before left: its documents in the mirror (and on the server), and what its engine learnt.
    const runner: Runner = { conversationId: 'old', device: LAPTOP, epoch: 0, since: 1 };
    await laptopMirror.putMany([
      await sealedDocument(await documentId(keys, 'runner', 'old'), { kind: 'runner', runner }),
      await sealedDocument(await documentId(keys, 'conversation', 'old'), { kind: 'conversation', conversation, writer: LAPTOP.id, epoch: 0 }),
      ...(await Promise.all(messages.map((found) => messageDocument(found, LAPTOP.id)))),
    ]);
    await laptopMirror.setLocal('state', { runners: [runner], foreign: [], deleted: [], authored: ['old'] });
    await laptopMirror.setLocal('since', laptopMirror.local.log.at(-1)!.seq);
    const replicator = new SimulatedReplicator(server, [laptopMirror], randomFrom(111));
    await replicator.settle();

    // This build starts over that mirror.
    await laptop.host.sync.attach(laptopMirror, keys, LAPTOP);
    const segmented = async () => (await payloadsIn(server.documents.values())).flatMap((payload) => (payload.kind === 'segment' ? payload.messages : []));
    await replicator.settle(async () => (await segmented()).length === 40);
    expect(await laptop.host.store.allMessages('old')).toHaveLength(40);
    const segments = (await payloadsIn(server.documents.values())).flatMap((payload) => (payload.kind === 'segment' ? [payload] : []));
    expect(segments.flatMap((segment) => segment.messages.map((held) => held.id)).sort()).toEqual(messages.map((found) => found.id).sort());
    // Its message documents are deleted, in the mirror and on the server, once the segments hold their messages.
    await replicator.settle(async () => (await payloadsIn(server.documents.values())).every((payload) => payload.kind !== 'message'));
    expect((await payloadsIn(laptopMirror.local.documents.values())).filter((payload) => payload.kind === 'message')).toEqual([]);
    expect((await laptopMirror.getLocal('state')) as { segmented?: boolean }).toMatchObject({ segmented: true });
    const later = await laterDevice(server, 112);
    await later.replicator.settle(async () => sameMessages(later.tablet, laptop, 'old'));
    expect(later.engine.refused()).toBeUndefined();
  });
});

describe('a hostile server and segments (sync)', { timeout: 120_000 }, () => {
  it('an older segment written back is refused and counted; a segment under another segment’s id is refused too', async () => {
    const { server, laptop, phone, replicator } = await simulatedDevices(121, { prepare: async (laptop) => void (await laptop.send({ type: 'conversation.import', data: exportOf('kept', [message('kept', 0, 'question'), message('kept', 1, 'first answer', 10)]) })) });
    await replicator.settle(async () => (await phone.host.store.allMessages('kept')).length === 2);
    const id = await segmentId(await testKeys(), { conversationId: 'kept', index: 0 });
    const old = structuredClone(server.documents.get(id)!.document);
    // The laptop's answer changes (as a streaming reply does); the phone takes the rewritten segment.
    await laptop.host.store.applyRemote({ messages: [message('kept', 1, 'second answer', 20)] });
    await replicator.settle(async () => textOf((await phone.host.store.allMessages('kept'))[1]) === 'second answer');
    const phoneEngine = await phone.host.sync.attach(replicator.mirrors[1]!, await testKeys(), PHONE);
    // The server writes the first revision back as its newest.
    expect(server.put({ ...old, _rev: server.documents.get(id)!.document._rev })).toBe('ok');
    await replicator.settle(async () => phoneEngine.refused() !== undefined);
    expect(phoneEngine.refused()).toMatchObject({ replayed: 1, misplaced: 0, unreadable: 0 });
    expect(textOf((await phone.host.store.allMessages('kept'))[1])).toBe('second answer');
    // The segment sealed again under the id of segment 1: its index says 0, so it is not in its place.
    const misplaced = await segmentDocument('kept', 0, [message('kept', 1, 'moved', 30)], LAPTOP.id);
    server.put({ ...misplaced, _id: await segmentId(await testKeys(), { conversationId: 'kept', index: 1 }) });
    await replicator.settle(async () => (phoneEngine.refused()?.misplaced ?? 0) > 0);
    expect(textOf((await phone.host.store.allMessages('kept'))[1])).toBe('second answer');
  });
});

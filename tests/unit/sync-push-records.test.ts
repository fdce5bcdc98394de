import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { LAPTOP, SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';
import { documentId, open, type SyncKeys } from '../../src/worker/sync/documents/sync-crypto';
import type { Message } from '../../src/schema/records';
import { segmentId } from '../../src/worker/sync/documents/message-segments';

// A local write's records reach the push queue with the write that committed them (sync-engine.ts's noteChange):
// sealed as noted, not read from the store again (a synced question round read its conversation and messages back).
// What a deletion removed meanwhile is not written after it.

/** Waits until the engine has applied every change the mirror holds. */
async function feedDrained(mirror: SimulatedMirror): Promise<void> {
  for (;;) {
    const last = mirror.local.log.at(-1)?.seq;
    if (last !== undefined && mirror.applied === Number(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Read-only transactions of the worker's database over `store` alone, counted from now. */
function readsOf(store: string): string[] {
  const reads: string[] = [];
  const transaction = IDBDatabase.prototype.transaction;
  vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores: string | Iterable<string>, mode?: IDBTransactionMode) {
    const names = typeof stores === 'string' ? [stores] : [...stores];
    if (mode !== 'readwrite' && names.length === 1 && names[0] === store) reads.push(store);
    return transaction.call(this, stores, mode);
  });
  return reads;
}

/** A synced tab whose conversation was asked "q" and answered "A." (the script's next reply is "B."). */
async function answeredOnce() {
  const keys = await testKeys();
  const mirror = new SimulatedMirror(new SimulatedServer());
  const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  await laptop.send({ type: 'settings.update', script: script([{ text: 'A.' }, { text: 'B.' }]) });
  const engine = await laptop.host.sync.attach(mirror, keys, LAPTOP);
  const { id } = await laptop.send({ type: 'conversation.create' });
  await laptop.send({ type: 'message.send', conversationId: id, text: 'q' });
  await waitForRunState(laptop, id, ['idle'], 30_000);
  return { keys, mirror, laptop, engine, id };
}

/** The first segment of a conversation as the mirror holds it, opened. */
async function segmentOf(mirror: SimulatedMirror, keys: SyncKeys, conversationId: string): Promise<{ messages: Message[] }> {
  const stored = mirror.local.documents.get(await segmentId(keys, { conversationId, index: 0 }))!.document;
  return JSON.parse(await open(keys, stored.m!)) as { messages: Message[] };
}

function textOf(message: Message): string {
  return message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

afterEach(() => vi.restoreAllMocks());

describe("a local write's records, pushed to the mirror (sync)", { timeout: 60_000 }, () => {
  it("are sealed as the write noted them: a rename's push reads no conversation from the store", async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await laptop.host.sync.attach(mirror, keys, LAPTOP);
    const { id } = await laptop.send({ type: 'conversation.create' });
    const record = await documentId(keys, 'conversation', id);
    await vi.waitFor(() => expect(mirror.local.documents.has(record)).toBe(true), { timeout: 30_000, interval: 20 });
    await feedDrained(mirror);
    const reads = readsOf('conversations');
    await laptop.send({ type: 'conversation.rename', conversationId: id, title: 'Lisbon' });
    await vi.waitFor(async () => {
      const stored = mirror.local.documents.get(record)!.document;
      expect(JSON.parse(await open(keys, { iv: stored.iv!, ct: stored.ct! })).conversation.title).toBe('Lisbon');
    }, { timeout: 30_000, interval: 20 });
    expect(reads).toEqual([]);
    laptop.close();
  });

  it('a message of a conversation deleted before its push is not written after the deletion', async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await laptop.send({ type: 'settings.update', script: script([{ text: 'x'.repeat(50) }], { chunkDelayMs: 20, chunkSize: 5 }) });
    const engine = await laptop.host.sync.attach(mirror, keys, LAPTOP);
    const { id } = await laptop.send({ type: 'conversation.create' });
    const record = await documentId(keys, 'conversation', id);
    await vi.waitFor(() => expect(mirror.local.documents.has(record)).toBe(true), { timeout: 30_000, interval: 20 });
    await feedDrained(mirror);
    // The question is noted with its record, then the conversation is deleted (within the push queue's gathering).
    await laptop.send({ type: 'message.send', conversationId: id, text: 'go' });
    await laptop.send({ type: 'conversation.delete', conversationId: id });
    await vi.waitFor(async () => {
      const stored = mirror.local.documents.get(record)!.document;
      expect(JSON.parse(await open(keys, { iv: stored.iv!, ct: stored.ct! })).kind).toBe('conversation-deleted');
    }, { timeout: 30_000, interval: 20 });
    await engine.flush();
    await vi.waitFor(() => expect(engine.writesPending).toBe(false), { timeout: 30_000, interval: 20 });
    const segment = await segmentId(keys, { conversationId: id, index: 0 });
    const seqOf = (documentId: string) => mirror.local.log.findLast((entry) => entry.id === documentId)?.seq ?? -1;
    // A segment written before the deletion is the deletion's to supersede; none is written after it.
    expect(seqOf(segment)).toBeLessThan(seqOf(record));
    laptop.close();
  });

  it("a record noted before another tab's worker wrote its conversation is read again: that tab's title is not written over", async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const peers: TestTab[] = [];
    const laptop = await openTab({ databaseName, locks });
    // The other tab has no sync of its own here: only what the laptop's tab pushes reaches the mirror.
    const other = await openTab({ databaseName, locks, peers });
    peers.push(laptop);
    await laptop.host.sync.attach(mirror, keys, LAPTOP);
    const { id } = await laptop.send({ type: 'conversation.create' });
    const record = await documentId(keys, 'conversation', id);
    await vi.waitFor(() => expect(mirror.local.documents.has(record)).toBe(true), { timeout: 30_000, interval: 20 });
    await feedDrained(mirror);
    const titleInMirror = async () => {
      const stored = mirror.local.documents.get(record)!.document;
      return JSON.parse(await open(keys, { iv: stored.iv!, ct: stored.ct! })).conversation?.title as string | undefined;
    };
    // The mirror's writes wait: this tab's rename is noted, then the other tab renames it too.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const putMany = mirror.putMany.bind(mirror);
    mirror.putMany = async (documents) => {
      await held;
      return putMany(documents);
    };
    await laptop.send({ type: 'conversation.rename', conversationId: id, title: 'From this tab' });
    await other.send({ type: 'conversation.rename', conversationId: id, title: 'From the other tab' });
    await vi.waitFor(() => expect(laptop.events.some((event) => event.type === 'conversation-upserted' && event.conversation.title === 'From the other tab')).toBe(true), { timeout: 30_000, interval: 20 });
    release();
    await vi.waitFor(async () => expect(await titleInMirror()).toBe('From the other tab'), { timeout: 30_000, interval: 20 });
    laptop.close();
    other.close();
  });

  it('a version deleted after a write noted it, before that write was pushed, is not sealed into its segment', async () => {
    const { keys, mirror, laptop, engine, id } = await answeredOnce();
    await engine.flush();
    // What is noted from here on gathers until the flush below (the queue's gathering delay never ends here), so the
    // regenerated version's noted copy and its deletion are pushed in one batch, as when a person deletes it at once.
    const queue = (engine as unknown as { pushQueue: { schedulePush(delay: number): void; pushTimer?: unknown } }).pushQueue;
    queue.schedulePush = function (this: { pushTimer?: unknown }) {
      this.pushTimer ??= setTimeout(() => undefined, 600_000);
    };
    const opened = await laptop.send({ type: 'conversation.open', conversationId: id });
    await laptop.send({ type: 'message.regenerate', conversationId: id, messageId: opened.messages[1]!.id });
    await waitForRunState(laptop, id, ['idle'], 30_000);
    const regenerated = (await laptop.send({ type: 'conversation.open', conversationId: id })).messages[1]!;
    await laptop.send({ type: 'message.deleteVersion', conversationId: id, messageId: regenerated.id });
    await engine.flush();
    const segment = await segmentOf(mirror, keys, id);
    expect(segment.messages.map((message) => message.id)).toContain(opened.messages[1]!.id);
    expect(segment.messages.map((message) => message.id)).not.toContain(regenerated.id);
    laptop.close();
  });

  it("a segment sealed again takes its other messages as sealed here last: a reply's push reads no messages from the store", async () => {
    const { keys, mirror, laptop, engine, id } = await answeredOnce();
    await engine.flush();
    await feedDrained(mirror);
    const reads = readsOf('messages');
    await laptop.send({ type: 'message.send', conversationId: id, text: 'more' });
    await waitForRunState(laptop, id, ['idle'], 30_000);
    await engine.flush();
    const segment = await segmentOf(mirror, keys, id);
    expect(segment.messages.map(textOf)).toEqual(['q', 'A.', 'more', 'B.']);
    expect(reads).toEqual([]);
    laptop.close();
  });

  it('a version deleted after its segment was sealed is not in the segment sealed next', async () => {
    const { keys, mirror, laptop, engine, id } = await answeredOnce();
    const first = (await laptop.send({ type: 'conversation.open', conversationId: id })).messages[1]!;
    await laptop.send({ type: 'message.regenerate', conversationId: id, messageId: first.id });
    await waitForRunState(laptop, id, ['idle'], 30_000);
    await engine.flush();
    expect((await segmentOf(mirror, keys, id)).messages.map(textOf)).toEqual(['q', 'A.', 'B.']);
    const regenerated = (await laptop.send({ type: 'conversation.open', conversationId: id })).messages[1]!;
    await laptop.send({ type: 'message.deleteVersion', conversationId: id, messageId: regenerated.id });
    await engine.flush();
    expect((await segmentOf(mirror, keys, id)).messages.map(textOf)).toEqual(['q', 'A.']);
    laptop.close();
  });
});

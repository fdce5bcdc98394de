import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName } from './host-harness';
import { LAPTOP, SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';
import { documentId, open } from '../../src/worker/sync/documents/sync-crypto';
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
});

import { afterEach, describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import type { ConversationExport } from '../../src/schema/records';
import { IMPORT_CHUNK_MESSAGES } from '../../src/worker/transfer/conversation-import';

type Put = (...args: unknown[]) => unknown;
const storePrototype = (globalThis as unknown as { IDBObjectStore: { prototype: { put: Put } } }).IDBObjectStore.prototype;
const realPut = storePrototype.put;
afterEach(() => {
  storePrototype.put = realPut;
});

/** `count` conversations of `messages` messages each; conversation i's texts are i+1 times as long as the first's. */
function exportOf(count: number, messages: number): ConversationExport {
  const now = 1_700_000_000_000;
  return {
    format: 'parley-export',
    version: 1,
    exportedAt: now,
    conversations: Array.from({ length: count }, (_, index) => {
      const id = `c${index}`;
      return {
        conversation: { id, title: `Conversation ${index}`, createdAt: now, updatedAt: now + index, runState: 'idle', completedSteps: 0 },
        messages: Array.from({ length: messages }, (_, seq) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role: seq % 2 ? 'assistant' : 'user', blocks: [{ type: 'text', text: 'x'.repeat(10 * (index + 1)) }], status: 'complete', createdAt: now, updatedAt: now }) as const),
      };
    }),
  };
}

describe('a big import', () => {
  it('is read and parsed from the chosen file by the worker, and written in several transactions with one list refresh', async () => {
    const file = exportOf(30, 100);
    expect(30 * 100).toBeGreaterThan(IMPORT_CHUNK_MESSAGES);
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const blob = new Blob([JSON.stringify(file)], { type: 'application/json' });
    expect(await tab.send({ type: 'conversation.import', file: blob })).toEqual({ imported: 30, skipped: 0, repairs: [] });
    expect((await tab.send({ type: 'conversation.export' })).conversations).toHaveLength(30);
    const imports = tab.events.filter((event) => event.type === 'conversations-imported');
    expect(imports).toHaveLength(1);
  });

  it('refuses a file that is not JSON, writing nothing', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await expect(tab.send({ type: 'conversation.import', file: new Blob(['not json']) })).rejects.toMatchObject({ code: 'invalid_command', reason: 'import_not_json' });
    expect(await tab.send({ type: 'conversation.list' })).toEqual([]);
  });

  it('keeps whole conversations written before a failure, never half of one, and says how many', async () => {
    const file = exportOf(30, 100);
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    let puts = 0;
    storePrototype.put = function (this: unknown, ...args: unknown[]) {
      // The disk fills up in the middle of the second chunk (in the middle of a conversation).
      if ((puts += 1) > IMPORT_CHUNK_MESSAGES + 20 + 50) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realPut.apply(this, args);
    };
    const failure = await tab.send({ type: 'conversation.import', data: file }).then(() => undefined, (error: unknown) => error as { code: string; params?: Record<string, number> });
    storePrototype.put = realPut;
    expect(failure).toMatchObject({ code: 'storage_full', params: { imported: 20, total: 30 } });
    const stored = (await tab.send({ type: 'conversation.export' })).conversations;
    expect(stored.map((entry) => entry.conversation.id).sort()).toEqual(file.conversations.slice(0, 20).map((entry) => entry.conversation.id).sort());
    expect(stored.every((entry) => entry.messages.length === 100)).toBe(true);
    // The list still learns of what was imported.
    const imports = tab.events.filter((event) => event.type === 'conversations-imported');
    expect(imports).toHaveLength(1);
  });

  it('says, when a later chunk failed, how many were already here and what was repaired in what was written', async () => {
    const file = exportOf(30, 100);
    // Conversation 7 says it waits for an answer but holds no question: imported, it is repaired to idle.
    file.conversations[7]!.conversation.runState = 'awaiting_input';
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'conversation.import', data: { ...file, conversations: file.conversations.slice(0, 5) } });
    let puts = 0;
    storePrototype.put = function (this: unknown, ...args: unknown[]) {
      // The first chunk (conversations 0–19) writes 15 of them (0–4 are here); the second fails in its first conversation.
      if ((puts += 1) > 15 * 101 + 50) throw new DOMException('Disk error', 'UnknownError');
      return realPut.apply(this, args);
    };
    const failure = await tab.send({ type: 'conversation.import', data: file }).then(() => undefined, (error: unknown) => error as { reason: string; params?: Record<string, number>; repairs?: unknown });
    storePrototype.put = realPut;
    expect(failure).toMatchObject({ reason: 'save_failed', params: { imported: 15, total: 30, skipped: 5 }, repairs: [{ conversationTitle: 'Conversation 7', code: 'waiting_without_question' }] });
    const stored = await tab.send({ type: 'conversation.open', conversationId: 'c7' });
    expect(stored.conversation.runState).toBe('idle');
  });
});

describe('conversation sizes', () => {
  it('lists the largest conversations first, with their message counts and the total', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'conversation.import', data: exportOf(5, 300) });
    const sizes = await tab.send({ type: 'storage.conversationSizes', limit: 3 });
    expect(sizes.conversations).toBe(5);
    expect(sizes.largest.map((entry) => entry.conversationId)).toEqual(['c4', 'c3', 'c2']);
    expect(sizes.largest.every((entry) => entry.messages === 300)).toBe(true);
    expect(sizes.largest[0]!.bytes).toBeGreaterThan(300 * 50);
    expect(sizes.totalBytes).toBeGreaterThan(sizes.largest.reduce((sum, entry) => sum + entry.bytes, 0));
  });
});

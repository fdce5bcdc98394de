import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName, type TestTab } from './host-harness';
import type { Message } from '../../src/schema/records';
import { openParleyDatabase } from '../../src/worker/store/database';

const conversationId = 'long';

function message(seq: number, extra: Partial<Message> = {}): Message {
  return { id: `m${seq}`, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text: `Message number ${seq}` }], status: 'complete', createdAt: seq, updatedAt: seq, ...extra };
}

/** A stored conversation of `count` messages, through the import a user would use. */
async function tabWith(count: number, options: { pendingAt?: number; overrides?: Message[]; firstNotStored?: number } = {}): Promise<TestTab> {
  const databaseName = uniqueDatabaseName();
  const tab = await openTab({ databaseName, locks: memoryLocks() });
  const messages = Array.from({ length: count }, (_, seq) => message(seq));
  const conversation = { id: conversationId, title: 'Long', createdAt: 0, updatedAt: 1, runState: 'idle', completedSteps: 0 };
  await tab.send({ type: 'conversation.import', data: { format: 'parley-export', version: 1, exportedAt: 1, conversations: [{ conversation, messages }] } });
  if (options.pendingAt !== undefined) {
    // Written raw: an import closes any pending request but the last message's, yet stored data may hold one (older code).
    const question = { header: 'Pick', question: 'Which one?', options: [{ label: 'A' }, { label: 'B' }], multiple: false, custom: true };
    const database = await openParleyDatabase(databaseName);
    await database.put('messages', message(options.pendingAt, {
      role: 'assistant',
      blocks: [{ type: 'request', kind: 'question', requestId: 'call_1', toolCallId: 'call_1', payload: { questions: [question] }, status: 'pending' }],
      pendingRequestId: 'call_1',
    }));
    database.close();
  }
  if (options.overrides) {
    const database = await openParleyDatabase(databaseName);
    for (const stored of options.overrides) await database.put('messages', stored);
    database.close();
  }
  if (options.firstNotStored !== undefined) {
    const database = await openParleyDatabase(databaseName);
    for (let seq = 0; seq < options.firstNotStored; seq += 1) await database.delete('messages', `m${seq}`);
    database.close();
  }
  return tab;
}

const seqs = (messages: Message[]) => messages.map((item) => item.seq);

/**
 * How many stored records IndexedDB hands back while `body` runs: each value or key a get or getAll returns, each step
 * of a cursor (one success of its request), and each key a count() walks (a count reads every key in its range, as
 * Chromium's does). The prototypes are wrapped, not idb: idb calls them.
 */
async function recordsReadDuring(body: () => Promise<unknown>): Promise<number> {
  let read = 0;
  const one = () => 1;
  const length = (result: unknown) => (result as unknown[]).length;
  const counted = (result: unknown) => result as number;
  const patches: Array<[Record<string, unknown>, string, (result: unknown) => number]> = [];
  for (const source of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Record<string, unknown>[]) {
    patches.push([source, 'get', one], [source, 'getKey', one], [source, 'getAll', length], [source, 'getAllKeys', length], [source, 'count', counted], [source, 'openCursor', one], [source, 'openKeyCursor', one]);
  }
  const originals = patches.map(([target, name]) => target[name] as (...args: unknown[]) => IDBRequest);
  patches.forEach(([target, name, size], at) => {
    target[name] = function (this: unknown, ...args: unknown[]) {
      const request = originals[at]!.apply(this, args);
      request.addEventListener('success', () => (read += request.result === null ? 0 : size(request.result)));
      return request;
    };
  });
  try {
    await body();
    return read;
  } finally {
    patches.forEach(([target, name], at) => (target[name] = originals[at]));
  }
}

describe('paging messages by seq', () => {
  it('opens with the newest page only and counts the messages before it', async () => {
    const tab = await tabWith(500);
    const opened = await tab.send({ type: 'conversation.open', conversationId });
    expect(seqs(opened.messages)).toEqual(Array.from({ length: 50 }, (_, index) => 450 + index));
    expect(opened.earlier).toBe(450);
  });

  it('reads as few stored records to open 3,000 messages as to open 100: it never counts the earlier ones', async () => {
    const short = await tabWith(100);
    const long = await tabWith(3000);
    const readShort = await recordsReadDuring(() => short.send({ type: 'conversation.open', conversationId }));
    let opened: { earlier?: number } = {};
    const readLong = await recordsReadDuring(async () => (opened = await long.send({ type: 'conversation.open', conversationId })));
    expect(opened.earlier).toBe(2950);
    expect(readLong).toBe(readShort);
    // The tally sees what the open reads: the newest page, at least.
    expect(readShort).toBeGreaterThanOrEqual(50);
  }, 60_000);

  it('counts the earlier messages of a line whose first ones are not stored yet (still arriving by sync) from the first stored', async () => {
    const tab = await tabWith(300, { firstNotStored: 10 });
    const opened = await tab.send({ type: 'conversation.open', conversationId });
    expect(opened.earlier).toBe(240);
    const page = await tab.send({ type: 'conversation.messages', conversationId, beforeSeq: 60, limit: 50 });
    expect(seqs(page.messages)).toEqual(Array.from({ length: 50 }, (_, index) => 10 + index));
    expect(page.earlier).toBe(0);
  });

  it('pages back by seq until the first message, each page oldest first', async () => {
    const tab = await tabWith(250);
    let beforeSeq = 200;
    const read: number[] = [];
    for (;;) {
      const page = await tab.send({ type: 'conversation.messages', conversationId, beforeSeq, limit: 60 });
      read.unshift(...seqs(page.messages));
      expect(page.earlier).toBe(page.messages[0]!.seq);
      if (page.earlier === 0) break;
      beforeSeq = page.messages[0]!.seq;
    }
    expect(read).toEqual(Array.from({ length: 200 }, (_, index) => index));
  });

  it('reads a range from a seq, for a search match far back', async () => {
    const tab = await tabWith(300);
    const page = await tab.send({ type: 'conversation.messages', conversationId, fromSeq: 20, beforeSeq: 30, limit: 100_000 });
    expect(seqs(page.messages)).toEqual(Array.from({ length: 10 }, (_, index) => 20 + index));
    expect(page.earlier).toBe(20);
  });

  it('reaches back to an old pending question so its form still shows', async () => {
    const tab = await tabWith(300, { pendingAt: 100 });
    const opened = await tab.send({ type: 'conversation.open', conversationId });
    expect(opened.messages[0]!.seq).toBe(100);
    expect(opened.messages.at(-1)!.seq).toBe(299);
    expect(opened.earlier).toBe(100);
  });

  it('finds the messages containing a text, case-insensitively, oldest first, each with its count', async () => {
    const tab = await tabWith(300);
    const found = await tab.send({ type: 'conversation.search', conversationId, query: 'NUMBER 12' });
    expect(found).toEqual({ matches: [12, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129].map((seq) => ({ seq, count: 1 })) });
  });

  it('counts every occurrence in text and reasoning, none in other blocks, in every stored message', async () => {
    // Far before the newest page, which is all `conversation.open` reads: the search reads the stored messages.
    const tab = await tabWith(300, {
      overrides: [
        message(3, { blocks: [{ type: 'text', text: 'Three, three and THREE.' }] }),
        message(5, {
          role: 'assistant',
          blocks: [
            { type: 'reasoning', text: 'Is it three?' },
            { type: 'text', text: 'Yes: three.' },
            { type: 'tool_call', toolCallId: 'call_1', toolName: 'three', args: { three: 'three' }, status: 'success', result: 'three' },
          ],
        }),
        message(7, { blocks: [{ type: 'text', text: '我喜欢用简体中文写作，中文很美。' }] }),
      ],
    });
    expect(await tab.send({ type: 'conversation.search', conversationId, query: 'three' })).toEqual({ matches: [{ seq: 3, count: 3 }, { seq: 5, count: 2 }] });
    expect(await tab.send({ type: 'conversation.search', conversationId, query: '中文' })).toEqual({ matches: [{ seq: 7, count: 2 }] });
    expect(await tab.send({ type: 'conversation.search', conversationId, query: 'no such words' })).toEqual({ matches: [] });
  });
});

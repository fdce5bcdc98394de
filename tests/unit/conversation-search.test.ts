import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { snippetOf, terms } from '../../src/core/search-text';

/** A conversation with one exchange: the user's text and the scripted model's echo of it. */
async function converse(tab: TestTab, text: string): Promise<string> {
  const conversation = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId: conversation.id, text });
  await waitForRunState(tab, conversation.id, ['idle']);
  return conversation.id;
}

async function setup(): Promise<TestTab> {
  const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  await tab.send({ type: 'settings.update', script: script([{ text: 'Noted: {{lastUserMessage}}' }]) });
  return tab;
}

const search = async (tab: TestTab, query: string) => (await tab.send({ type: 'conversations.search', query })).results;

describe('search across conversations (the worker index)', () => {
  it('finds message text and titles: one result per conversation, with its best message and how many match', async () => {
    const tab = await setup();
    const garden = await converse(tab, 'Which tomatoes grow well on a balcony?');
    await converse(tab, 'Plan a trip to Lisbon');
    const results = await search(tab, 'tomato');
    expect(results).toHaveLength(1);
    const [found] = results;
    expect(found!.conversationId).toBe(garden);
    // The user's message and the scripted echo of it both match; the title too.
    expect(found!.matchingMessages).toBe(2);
    expect(found!.best!.messageId).toBeDefined();
    expect(found!.title.text).toBe('Which tomatoes grow well on a balcony?');
    expect(found!.title.ranges.map((range) => found!.title.text.slice(range.start, range.end))).toEqual(['tomatoes']);
    expect(found!.best!.snippet.ranges.map((range) => found!.best!.snippet.text.slice(range.start, range.end))).toEqual(['tomatoes']);
    expect(await search(tab, 'lisbon trip')).toHaveLength(1);
    expect(await search(tab, 'lisbon tomatoes')).toEqual([]);
  });

  it('keeps the index up to date as messages are written after the first search, and forgets a deleted conversation', async () => {
    const tab = await setup();
    await converse(tab, 'first words');
    expect(await search(tab, 'harbour')).toEqual([]); // builds the index
    const later = await converse(tab, 'The harbour at dawn');
    expect((await search(tab, 'harbour')).map((result) => result.conversationId)).toContain(later);
    await tab.send({ type: 'conversation.rename', conversationId: later, title: 'Sea views' });
    expect(await search(tab, 'sea views')).toMatchObject([{ conversationId: later, best: undefined, matchingMessages: 0 }]);
    await tab.send({ type: 'conversation.delete', conversationId: later });
    expect(await search(tab, 'harbour')).toEqual([]);
    expect(await search(tab, 'sea')).toEqual([]);
  });

  it('counts the messages of a conversation that match, and forgets a deleted version', async () => {
    const tab = await setup();
    await tab.send({ type: 'settings.update', script: script([{ text: 'Noted: {{lastUserMessage}}' }, { text: 'Again: {{lastUserMessage}}' }]) });
    const id = await converse(tab, 'A kiwi for breakfast');
    expect(await search(tab, 'kiwi')).toMatchObject([{ conversationId: id, matchingMessages: 2 }]);
    const reply = (await tab.send({ type: 'conversation.open', conversationId: id })).messages[1]!;
    const { message: second } = await tab.send({ type: 'message.regenerate', conversationId: id, messageId: reply.id });
    await waitForRunState(tab, id, ['idle']);
    expect(await search(tab, 'kiwi')).toMatchObject([{ matchingMessages: 3 }]); // both versions of the reply
    await tab.send({ type: 'message.deleteVersion', conversationId: id, messageId: second.id });
    expect(await search(tab, 'kiwi')).toMatchObject([{ matchingMessages: 2 }]);
  });

  it('finds Simplified Chinese words inside a sentence written without spaces', async () => {
    const tab = await setup();
    const chinese = await converse(tab, '我喜欢用简体中文写作');
    await converse(tab, '繁體字');
    for (const query of ['简体中文', '中文', '写']) {
      const results = await search(tab, query);
      expect(results.length, query).toBeGreaterThan(0);
      expect(results.every((result) => result.conversationId === chinese), query).toBe(true);
    }
    const [first] = await search(tab, '中文');
    expect(first!.best!.snippet.ranges.map((range) => first!.best!.snippet.text.slice(range.start, range.end))).toEqual(['中文']);
  });

  it("re-reads another tab's writes it is told of", async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const first = await openTab({ databaseName, locks });
    const second = await openTab({ databaseName, locks, peers: [first] });
    await second.send({ type: 'settings.update', script: script([{ text: 'ok' }]) });
    expect(await search(first, 'orchard')).toEqual([]);
    const conversation = await second.send({ type: 'conversation.create' });
    await second.send({ type: 'message.send', conversationId: conversation.id, text: 'An orchard of pears' });
    await waitForRunState(second, conversation.id, ['idle']);
    await expect.poll(async () => (await search(first, 'orchard')).length).toBeGreaterThan(0);
    await second.send({ type: 'conversation.delete', conversationId: conversation.id });
    await expect.poll(async () => (await search(first, 'orchard')).length).toBe(0);
  });
});

describe('what a message says (searchableText), the same for search across conversations and Find', () => {
  it('finds a word in reasoning with both, a tool call or a word made across two blocks with neither', async () => {
    const now = 1_700_000_000_000;
    const blocks = [
      { type: 'reasoning' as const, text: 'Pondering the zebra question' },
      { type: 'tool_call' as const, toolCallId: 'call-1', toolName: 'lookup_giraffe', args: { animal: 'okapi' }, status: 'success' as const, result: 'The ibex lives high' },
      { type: 'text' as const, text: 'The answer is sun' },
      { type: 'text' as const, text: 'flower seeds' },
    ];
    const conversation = { id: 'zoo', title: 'Zoo', createdAt: now, updatedAt: now, runState: 'idle' as const, completedSteps: 1 };
    const messages = [
      { id: 'zoo-m0', conversationId: 'zoo', seq: 0, role: 'user' as const, blocks: [{ type: 'text' as const, text: 'Tell me' }], status: 'complete' as const, createdAt: now, updatedAt: now },
      { id: 'zoo-m1', conversationId: 'zoo', seq: 1, role: 'assistant' as const, blocks, status: 'complete' as const, createdAt: now, updatedAt: now },
    ];
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const file = new Blob([JSON.stringify({ format: 'parley-export', version: 1, exportedAt: now, conversations: [{ conversation, messages }] })], { type: 'application/json' });
    expect(await tab.send({ type: 'conversation.import', file })).toMatchObject({ imported: 1 });
    const agreed: Record<string, boolean> = {};
    for (const word of ['zebra', 'pondering', 'sun', 'flower', 'seeds', 'sunflower', 'giraffe', 'okapi', 'ibex']) {
      const found = (await search(tab, word)).some((result) => result.best?.messageId === 'zoo-m1');
      const { matches } = await tab.send({ type: 'conversation.search', conversationId: 'zoo', query: word });
      expect(found, word).toBe(matches.some((match) => match.seq === 1));
      agreed[word] = found;
    }
    expect(agreed).toEqual({ zebra: true, pondering: true, sun: true, flower: true, seeds: true, sunflower: false, giraffe: false, okapi: false, ibex: false });
  });
});

describe('the first search over many messages', () => {
  it('indexes every batch read (first, middle, last), and other commands are answered while it builds', async () => {
    const now = 1_700_000_000_000;
    // 1,100 messages: three of the build's batches of 500, read one while the one before is indexed.
    const conversations = Array.from({ length: 110 }, (_, index) => {
      const id = `c${String(index).padStart(3, '0')}`;
      const special = index === 0 ? ' aardvark' : index === 55 ? ' bison' : index === 109 ? ' chameleon' : '';
      return {
        conversation: { id, title: `Conversation ${index}`, createdAt: now, updatedAt: now + index, runState: 'idle' as const, completedSteps: 0 },
        messages: Array.from({ length: 10 }, (_, seq) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role: seq % 2 ? ('assistant' as const) : ('user' as const), blocks: [{ type: 'text' as const, text: `plain words ${seq}${seq === 9 ? special : ''}` }], status: 'complete' as const, createdAt: now, updatedAt: now })),
      };
    });
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const file = new Blob([JSON.stringify({ format: 'parley-export', version: 1, exportedAt: now, conversations })], { type: 'application/json' });
    expect(await tab.send({ type: 'conversation.import', file })).toMatchObject({ imported: 110 });

    const order: string[] = [];
    const first = search(tab, 'aardvark').then((results) => (order.push('search'), results));
    const list = tab.send({ type: 'conversation.list' }).then((found) => (order.push('list'), found));
    expect(await list).toHaveLength(110);
    expect((await first).map((result) => result.best?.messageId)).toEqual(['c000-m9']);
    expect(order).toEqual(['list', 'search']);
    expect((await search(tab, 'bison')).map((result) => result.best?.messageId)).toEqual(['c055-m9']);
    expect((await search(tab, 'chameleon')).map((result) => result.best?.messageId)).toEqual(['c109-m9']);
    const plain = await search(tab, 'plain words');
    expect(plain).toHaveLength(20);
    expect(new Set(plain.map((result) => result.conversationId)).size).toBe(20);
    expect(plain.every((result) => result.matchingMessages === 10)).toBe(true);
  }, 60_000);
});

describe('search text', () => {
  it('cuts Chinese into characters and pairs, and a query into pairs only', () => {
    expect(terms('简体中文 ok')).toEqual(['简', '简体', '体', '体中', '中', '中文', '文', 'ok']);
    expect(terms('简体中文', true)).toEqual(['简体', '体中', '中文']);
  });

  it('keeps the ranges on the matched words when the snippet starts inside the text', () => {
    const text = `${'word '.repeat(40)}needle and more`;
    const snippet = snippetOf(text, new Set(['needle']));
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.ranges.map((range) => snippet.text.slice(range.start, range.end))).toEqual(['needle']);
  });
});

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
  it('finds message text and titles, with the matched words as ranges of the snippet', async () => {
    const tab = await setup();
    const garden = await converse(tab, 'Which tomatoes grow well on a balcony?');
    await converse(tab, 'Plan a trip to Lisbon');
    const results = await search(tab, 'tomato');
    expect(results.map((result) => result.conversationId)).toEqual([garden, garden, garden]);
    const user = results.find((result) => result.seq === 0)!;
    expect(user.messageId).toBeDefined();
    expect(user.title).toBe('Which tomatoes grow well on a balcony?');
    expect(user.snippet.ranges.map((range) => user.snippet.text.slice(range.start, range.end))).toEqual(['tomatoes']);
    expect(results.filter((result) => result.messageId === undefined)).toHaveLength(1); // the title
    expect(await search(tab, 'lisbon trip')).toHaveLength(3);
    expect(await search(tab, 'lisbon tomatoes')).toEqual([]);
  });

  it('keeps the index up to date as messages are written after the first search, and forgets a deleted conversation', async () => {
    const tab = await setup();
    await converse(tab, 'first words');
    expect(await search(tab, 'harbour')).toEqual([]); // builds the index
    const later = await converse(tab, 'The harbour at dawn');
    expect((await search(tab, 'harbour')).map((result) => result.conversationId)).toContain(later);
    await tab.send({ type: 'conversation.rename', conversationId: later, title: 'Sea views' });
    expect((await search(tab, 'sea views')).map((result) => result.messageId)).toEqual([undefined]);
    await tab.send({ type: 'conversation.delete', conversationId: later });
    expect(await search(tab, 'harbour')).toEqual([]);
    expect(await search(tab, 'sea')).toEqual([]);
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
    expect(first!.snippet.ranges.map((range) => first!.snippet.text.slice(range.start, range.end))).toEqual(['中文']);
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
    expect((await first).map((result) => result.messageId)).toEqual(['c000-m9']);
    expect(order).toEqual(['list', 'search']);
    expect((await search(tab, 'bison')).map((result) => result.messageId)).toEqual(['c055-m9']);
    expect((await search(tab, 'chameleon')).map((result) => result.messageId)).toEqual(['c109-m9']);
    expect(await search(tab, 'plain words')).toHaveLength(20);
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

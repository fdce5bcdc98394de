import { describe, expect, it } from 'vitest';
import { pathOf } from '../../src/core/branches';
import { forksProblem } from '../../src/core/branch-edits';
import { versionsOf } from '../../src/schema/records';
import type { Model } from '../../src/core/run/model';
import type { Block } from '../../src/schema/messages/blocks';
import type { Message, Profile } from '../../src/schema/records';
import { openParleyDatabase } from '../../src/worker/store/database';
import { createModelForProfile } from '../../src/worker/providers/registry';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';

function message(id: string, seq: number, parentId?: string, role: Message['role'] = 'user'): Message {
  return { id, conversationId: 'c', seq, role, blocks: [{ type: 'text', text: id }], status: 'complete', createdAt: seq, updatedAt: seq, ...(parentId !== undefined ? { parentId } : {}) };
}

describe('pathOf', () => {
  it('is every message in order while there is no fork, also for messages from before branches', () => {
    const line = [message('b', 1), message('a', 0), message('c', 2, 'b')];
    expect(pathOf(line, undefined).map((item) => item.id)).toEqual(['a', 'b', 'c']);
  });

  it('follows the selected version at each fork, and the only child elsewhere', () => {
    // a → b → c (old reply), b → c2 (regenerated) → d; a first message edited: a2 → e.
    const all = [message('a', 0), message('b', 1), message('c', 2), message('c2', 2, 'b'), message('d', 3, 'c2'), message('a2', 0, ''), message('e', 1, 'a2')];
    const forks = [
      { parentId: 'b', childIds: ['c', 'c2'], selectedId: 'c2' },
      { parentId: '', childIds: ['a', 'a2'], selectedId: 'a' },
    ];
    expect(pathOf(all, forks).map((item) => item.id)).toEqual(['a', 'b', 'c2', 'd']);
    expect(pathOf(all, [{ ...forks[0]!, selectedId: 'c' }, forks[1]!]).map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(pathOf(all, [forks[0]!, { ...forks[1]!, selectedId: 'a2' }]).map((item) => item.id)).toEqual(['a2', 'e']);
    expect(versionsOf(forks, 'c2')).toEqual({ ids: ['c', 'c2'], index: 1 });
    expect(versionsOf(forks, 'd')).toEqual({ ids: ['d'], index: 0 });
    expect(forksProblem(all, forks)).toBeUndefined();
    expect(forksProblem(all, [{ parentId: 'b', childIds: ['c', 'e'], selectedId: 'c' }])).toMatch(/not one of its children/);
    expect(forksProblem(all, [{ parentId: 'b', childIds: ['c', 'c2'], selectedId: 'x' }])).toMatch(/not one of its versions/);
  });
});

/** A scripted model that records the texts of the history each request carried. */
function recordingModel() {
  const histories: string[][] = [];
  const createModel = async (profile: Profile, scriptText: string): Promise<Model> => {
    const model = await createModelForProfile(profile, scriptText);
    return {
      streamStep(request) {
        histories.push(request.history.map((item) => `${item.role}: ${item.blocks.map((block: Block) => (block.type === 'text' ? block.text : '')).join('')}`));
        return model.streamStep(request);
      },
    };
  };
  return { createModel, histories };
}

function textOf(item: Message | undefined): string {
  return item?.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? '';
}

async function idle(tab: TestTab, conversationId: string) {
  await waitForRunState(tab, conversationId, ['idle', 'awaiting_input', 'error', 'interrupted']);
  return tab.send({ type: 'conversation.open', conversationId });
}

describe('versions and branches in the worker', () => {
  it('regenerate twice keeps three versions; the one on screen survives a reload and is what the model reads next', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const model = recordingModel();
    const tab = await openTab({ databaseName, locks, createModel: model.createModel });
    await tab.send({ type: 'settings.update', script: script([{ text: 'Version one.' }, { text: 'Version two.' }, { text: 'Version three.' }, { text: 'Next: {{lastUserMessage}}' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'Tell me.' });
    let opened = await idle(tab, id);
    for (const _ of [1, 2]) {
      await tab.send({ type: 'message.regenerate', conversationId: id, messageId: opened.messages.at(-1)!.id });
      opened = await idle(tab, id);
    }
    expect(opened.messages.map(textOf)).toEqual(['Tell me.', 'Version three.']);
    const versions = versionsOf(opened.conversation.forks, opened.messages.at(-1)!.id);
    expect(versions.ids).toHaveLength(3);
    expect(versions.index).toBe(2);
    // Each regeneration asked from the same history: the user's message alone.
    expect(model.histories.slice(0, 3)).toEqual([['user: Tell me.'], ['user: Tell me.'], ['user: Tell me.']]);

    const selected = await tab.send({ type: 'message.selectVersion', conversationId: id, messageId: versions.ids[0]! });
    expect(selected.messages.map(textOf)).toEqual(['Version one.']);
    tab.close();
    const reloaded = await openTab({ databaseName, locks, createModel: model.createModel });
    opened = await reloaded.send({ type: 'conversation.open', conversationId: id });
    expect(opened.messages.map(textOf)).toEqual(['Tell me.', 'Version one.']);
    await reloaded.send({ type: 'message.send', conversationId: id, text: 'And then?' });
    opened = await idle(reloaded, id);
    expect(model.histories.at(-1)).toEqual(['user: Tell me.', 'assistant: Version one.', 'user: And then?']);
    expect(opened.messages.map(textOf)).toEqual(['Tell me.', 'Version one.', 'And then?', 'Next: And then?']);
    // All five messages are stored; only the path is read.
    const database = await openParleyDatabase(databaseName);
    expect(await database.getAllFromIndex('messages', 'by-conversation', IDBKeyRange.bound([id, 0], [id, Infinity]))).toHaveLength(6);
    database.close();
    reloaded.close();
  });

  it('editing the first message of a three-turn conversation branches from there; the old branch stays reachable', async () => {
    const model = recordingModel();
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: model.createModel });
    await tab.send({ type: 'settings.update', script: script([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }, { text: 'Got: {{lastUserMessage}}' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    for (const text of ['first', 'second', 'third']) {
      await tab.send({ type: 'message.send', conversationId: id, text });
      await idle(tab, id);
    }
    let opened = await idle(tab, id);
    const first = opened.messages[0]!;
    await tab.send({ type: 'message.edit', conversationId: id, messageId: first.id, text: 'first, edited' });
    opened = await idle(tab, id);
    expect(opened.messages.map(textOf)).toEqual(['first, edited', 'Got: first, edited']);
    expect(model.histories.at(-1)).toEqual(['user: first, edited']);
    const versions = versionsOf(opened.conversation.forks, opened.messages[0]!.id);
    expect(versions).toEqual({ ids: [first.id, opened.messages[0]!.id], index: 1 });
    await tab.send({ type: 'message.selectVersion', conversationId: id, messageId: first.id });
    opened = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(opened.messages.map(textOf)).toEqual(['first', 'One.', 'second', 'Two.', 'third', 'Three.']);
    // The conversation's search reads the path on screen only.
    expect(await tab.send({ type: 'conversation.search', conversationId: id, query: 'edited' })).toEqual({ matches: [] });
    expect(await tab.send({ type: 'conversation.search', conversationId: id, query: 'FIRST' })).toEqual({ matches: [{ seq: opened.messages[0]!.seq, count: 1 }] });
    tab.close();
  });

  it('leaving a branch in which a question waits asks first, then closes the question', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const question = { text: 'First a question.', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Pick', question: 'Which?', options: ['A', 'B'] }] } }] };
    await tab.send({ type: 'settings.update', script: script([{ text: 'Hello.' }, question, { text: 'Fresh.' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hi' });
    await idle(tab, id);
    await tab.send({ type: 'message.send', conversationId: id, text: 'ask me' });
    let opened = await idle(tab, id);
    expect(opened.conversation.runState).toBe('awaiting_input');
    await expect(tab.send({ type: 'message.edit', conversationId: id, messageId: opened.messages[0]!.id, text: 'hello' })).rejects.toMatchObject({ code: 'invalid_state', reason: 'request_pending_in_branch' });
    expect(await tab.send({ type: 'requests.listPending' })).toHaveLength(1);
    await tab.send({ type: 'message.edit', conversationId: id, messageId: opened.messages[0]!.id, text: 'hello', discardPending: true });
    opened = await idle(tab, id);
    expect(opened.messages.map(textOf)).toEqual(['hello', 'Fresh.']);
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([]);
    tab.close();
  });

  it('refuses a new version while a reply is written, and one of a message that is not on the path', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'Slow reply that takes a while.' }], { chunkDelayMs: 50, chunkSize: 2 }) });
    const { id } = await tab.send({ type: 'conversation.create' });
    const message = (await tab.send({ type: 'message.send', conversationId: id, text: 'go' })).message!;
    await expect(tab.send({ type: 'message.edit', conversationId: id, messageId: message.id, text: 'again' })).rejects.toMatchObject({ code: 'busy' });
    await tab.send({ type: 'run.stop', conversationId: id });
    await idle(tab, id);
    await expect(tab.send({ type: 'message.regenerate', conversationId: id, messageId: message.id })).rejects.toMatchObject({ code: 'invalid_command' });
    await expect(tab.send({ type: 'message.selectVersion', conversationId: id, messageId: message.id })).rejects.toMatchObject({ code: 'not_found' });
    tab.close();
  });
});

describe('versions through export and import', () => {
  it('travel whole: the other browser shows the same version and can switch to the others', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'First try.' }, { text: 'Second try.' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'q' });
    let opened = await idle(tab, id);
    const firstTry = opened.messages[1]!;
    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: firstTry.id });
    await idle(tab, id);
    const file = JSON.parse(JSON.stringify(await tab.send({ type: 'conversation.export' })));
    tab.close();

    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    expect(await elsewhere.send({ type: 'conversation.import', data: file })).toMatchObject({ imported: 1 });
    opened = await elsewhere.send({ type: 'conversation.open', conversationId: id });
    expect(opened.messages.map(textOf)).toEqual(['q', 'Second try.']);
    await elsewhere.send({ type: 'message.selectVersion', conversationId: id, messageId: firstTry.id });
    opened = await elsewhere.send({ type: 'conversation.open', conversationId: id });
    expect(opened.messages.map(textOf)).toEqual(['q', 'First try.']);

    // A file whose versions do not fit its messages is refused whole.
    const forged = structuredClone(file);
    forged.conversations[0].conversation.id = 'other';
    forged.conversations[0].messages = forged.conversations[0].messages.map((item: Message) => ({ ...item, id: `x-${item.id}`, conversationId: 'other', ...(item.parentId ? { parentId: `x-${item.parentId}` } : {}) }));
    forged.conversations[0].conversation.forks[0].selectedId = 'nobody';
    await expect(elsewhere.send({ type: 'conversation.import', data: forged })).rejects.toMatchObject({ code: 'invalid_command', reason: 'import_inconsistent' });
    elsewhere.close();
  });
});

describe('deleting a version', () => {
  it('removes it and its branch, keeps the others, and shows the version beside it', async () => {
    const databaseName = uniqueDatabaseName();
    const tab = await openTab({ databaseName, locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'A.' }, { text: 'B.' }, { text: 'After B.' }, { text: 'C.' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'q' });
    let opened = await idle(tab, id);
    const a = opened.messages[1]!;
    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: a.id });
    opened = await idle(tab, id);
    const b = opened.messages[1]!;
    await tab.send({ type: 'message.send', conversationId: id, text: 'more' });
    await idle(tab, id);
    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: b.id });
    opened = await idle(tab, id);
    expect(opened.messages.map(textOf)).toEqual(['q', 'C.']);
    expect(versionsOf(opened.conversation.forks, opened.messages[1]!.id)).toEqual({ ids: [a.id, b.id, opened.messages[1]!.id], index: 2 });

    // B, with what followed it ("more", "After B."), goes; A and C stay.
    await tab.send({ type: 'message.deleteVersion', conversationId: id, messageId: b.id });
    opened = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(opened.messages.map(textOf)).toEqual(['q', 'C.']);
    expect(versionsOf(opened.conversation.forks, opened.messages[1]!.id).ids).toEqual([a.id, opened.messages[1]!.id]);
    const database = await openParleyDatabase(databaseName);
    const stored = await database.getAllFromIndex('messages', 'by-conversation', IDBKeyRange.bound([id, 0], [id, Infinity]));
    expect(stored.map(textOf).sort()).toEqual(['A.', 'C.', 'q']);
    database.close();

    // Deleting the version on screen shows the one beside it; with one left, the message has no versions any more.
    await tab.send({ type: 'message.deleteVersion', conversationId: id, messageId: opened.messages[1]!.id });
    opened = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(opened.messages.map(textOf)).toEqual(['q', 'A.']);
    expect(opened.conversation.forks).toBeUndefined();
    await expect(tab.send({ type: 'message.deleteVersion', conversationId: id, messageId: a.id })).rejects.toMatchObject({ code: 'not_found' });
    tab.close();
  });
});

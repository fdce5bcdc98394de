import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import type { ConversationExport } from '../../src/schema/records';

async function exportedConversationWithAQuestion() {
  const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  const ask = { toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] };
  await tab.send({ type: 'settings.update', script: script([{ text: 'Hi!' }, ask]) });
  const { id } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
  await waitForRunState(tab, id, ['idle']);
  await tab.send({ type: 'message.send', conversationId: id, text: 'plan a trip' });
  await waitForRunState(tab, id, ['awaiting_input']);
  return { id, file: await tab.send({ type: 'conversation.export' }) };
}

describe('import of an export', () => {
  it('restores every conversation and message in another browser, pending question included', async () => {
    const { id, file } = await exportedConversationWithAQuestion();
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    expect(await elsewhere.send({ type: 'conversation.import', data: JSON.parse(JSON.stringify(file)) })).toEqual({ imported: 1, skipped: 0 });
    const { conversation, messages } = await elsewhere.send({ type: 'conversation.open', conversationId: id });
    expect({ conversation, messages }).toEqual(file.conversations[0]);
    expect(await elsewhere.send({ type: 'questions.listPending' })).toHaveLength(1);
    expect(elsewhere.events.some((event) => event.type === 'conversation-upserted' && event.conversation.id === id)).toBe(true);
  });

  it('skips what is already here, so importing the same file twice changes nothing', async () => {
    const { file } = await exportedConversationWithAQuestion();
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await elsewhere.send({ type: 'conversation.import', data: file });
    const before = await elsewhere.send({ type: 'conversation.export' });
    expect(await elsewhere.send({ type: 'conversation.import', data: file })).toEqual({ imported: 0, skipped: 1 });
    expect({ ...(await elsewhere.send({ type: 'conversation.export' })), exportedAt: 0 }).toEqual({ ...before, exportedAt: 0 });
  });

  it('brings a run that was live when exported back as interrupted, and drops an unknown profile', async () => {
    const { file } = await exportedConversationWithAQuestion();
    const entry = file.conversations[0]!;
    const live: ConversationExport = {
      ...file,
      conversations: [{ conversation: { ...entry.conversation, runState: 'running', profileId: 'not-here' }, messages: entry.messages.map((message, index) => (index === entry.messages.length - 1 ? { ...message, status: 'streaming' as const } : message)) }],
    };
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await elsewhere.send({ type: 'conversation.import', data: live });
    const { conversation, messages } = await elsewhere.send({ type: 'conversation.open', conversationId: entry.conversation.id });
    expect(conversation.runState).toBe('interrupted');
    expect(conversation.profileId).toBeUndefined();
    expect(messages.at(-1)?.status).toBe('interrupted');
  });

  it('refuses a file that is not a valid export, writing nothing', async () => {
    const { file } = await exportedConversationWithAQuestion();
    const entry = file.conversations[0]!;
    const elsewhere = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const bad: unknown[] = [
      null,
      { format: 'something-else', version: 1, exportedAt: 0, conversations: [] },
      { ...file, conversations: [{ ...entry, messages: [{ ...entry.messages[0], role: 'system' }] }] },
      { ...file, conversations: [{ ...entry, messages: [entry.messages[0], { ...entry.messages[1]!, seq: entry.messages[0]!.seq }] }] },
      { ...file, conversations: [{ ...entry, messages: [{ ...entry.messages[0]!, conversationId: 'other' }] }] },
    ];
    for (const data of bad) {
      await expect(elsewhere.send({ type: 'conversation.import', data })).rejects.toMatchObject({ code: 'invalid_command', message: expect.stringContaining('Nothing was imported') });
    }
    expect(await elsewhere.send({ type: 'conversation.list' })).toEqual([]);
    expect(elsewhere.events).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import type { Locks } from '../../src/worker/runs/locks';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runs and the other writers of a conversation', () => {
  it('keeps a rename made while a reply streams', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'z'.repeat(400) }], { chunkDelayMs: 2, chunkSize: 2 }) });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hello' });
    await expect.poll(async () => (await tab.host.store.listMessages(conversationId))[1]?.blocks.length ?? 0).toBeGreaterThan(0);
    await tab.send({ type: 'conversation.rename', conversationId, title: 'My title' });
    await waitForRunState(tab, conversationId, ['idle']);
    expect((await tab.host.store.getConversation(conversationId))?.title).toBe('My title');
  });

  it('claims the run lock before marking a conversation running, so another tab cannot call it interrupted', async () => {
    const databaseName = uniqueDatabaseName();
    const shared = memoryLocks();
    // Waiting for a lock takes a while in a busy browser; trying for it does not.
    const slowToWait: Locks = { tryAcquire: (name) => shared.tryAcquire(name), acquire: async (name) => (await pause(30), shared.acquire(name)), heldNames: () => shared.heldNames() };
    const first = await openTab({ databaseName, locks: slowToWait });
    await first.send({ type: 'settings.update', script: script([{ text: 'answered' }]) });
    const { id: conversationId } = await first.send({ type: 'conversation.create' });
    const second = await openTab({ databaseName, locks: shared });
    await first.send({ type: 'message.send', conversationId, text: 'hi' });
    await second.send({ type: 'conversation.open', conversationId }); // runs the dead-tab check
    await waitForRunState(first, conversationId, ['idle', 'interrupted']);
    const { conversation, messages } = await first.send({ type: 'conversation.open', conversationId });
    expect(conversation.runState).toBe('idle');
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
  });

  it('leaves a conversation idle when Stop comes before its first step', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const created = await tab.send({ type: 'conversation.create' });
    await tab.host.store.write({ conversation: { ...created, runState: 'running' } });
    const done = tab.host.runs.start(created.id);
    expect(tab.host.runs.stop(created.id)).toBe(true);
    await done;
    expect((await tab.host.store.getConversation(created.id))?.runState).toBe('idle');
  });

  it('counts invalid questions in a row only: a good step in between resets the count', async () => {
    const invalid = { toolCalls: [{ name: 'question', args: { questions: [] } }] };
    const tool = { toolCalls: [{ name: 'get_current_time', args: {} }] };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([invalid, invalid, tool, invalid, invalid, tool, { text: 'done' }]) });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['idle', 'error']);
    expect((await tab.host.store.getConversation(conversationId))).toMatchObject({ runState: 'idle', completedSteps: 7 });
  });
});

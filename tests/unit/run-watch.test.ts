import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { runLockName } from '../../src/worker/runs/locks';

describe('a tab that watches a run in another tab', () => {
  it('marks the run interrupted the moment the running tab is gone', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const watcher = await openTab({ databaseName, locks });
    const created = await watcher.send({ type: 'conversation.create' });
    // Another tab's run: its lock held, the conversation stored running with a streaming reply.
    const releaseDeadTab = (await locks.tryAcquire(runLockName(created.id)))!;
    await watcher.host.store.write({
      conversation: { ...created, runState: 'running' },
      messages: [{ id: 'm1', conversationId: created.id, seq: 0, role: 'assistant', blocks: [{ type: 'text', text: 'half a rep' }], status: 'streaming', createdAt: 1, updatedAt: 1 }],
    });

    const opened = await watcher.send({ type: 'conversation.open', conversationId: created.id });
    expect(opened.conversation.runState).toBe('running'); // alive: nothing to repair yet

    releaseDeadTab(); // the browser releases a dead tab's locks
    await expect.poll(async () => (await watcher.host.store.getConversation(created.id))?.runState).toBe('interrupted');
    expect((await watcher.host.store.listMessages(created.id))[0]?.status).toBe('interrupted');
    // Continue is possible from here.
    await watcher.send({ type: 'settings.update', script: script([{ text: 'half a reply, finished.' }]) });
    await watcher.send({ type: 'run.continue', conversationId: created.id });
    await waitForRunState(watcher, created.id, ['idle']);
  });

  it('writes nothing when the other tab finished its run normally', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const runner = await openTab({ databaseName, locks });
    const watcher = await openTab({ databaseName, locks });
    await runner.send({ type: 'settings.update', script: script([{ text: 'z'.repeat(300) }], { chunkDelayMs: 2, chunkSize: 3 }) });
    const { id: conversationId } = await runner.send({ type: 'conversation.create' });
    await runner.send({ type: 'message.send', conversationId, text: 'hi' });
    await watcher.send({ type: 'conversation.open', conversationId }); // starts watching
    await waitForRunState(runner, conversationId, ['idle']);
    // Give the watcher its turn at the lock.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { conversation, messages } = await watcher.send({ type: 'conversation.open', conversationId });
    expect(conversation.runState).toBe('idle');
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
  });
});

describe('Stop of a run nobody is running any more', () => {
  it('turns the interrupted reply into a stopped one in one transaction, leaving the conversation idle', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const created = await tab.send({ type: 'conversation.create' });
    // A run whose tab died: stored running, no lock held.
    await tab.host.store.write({
      conversation: { ...created, runState: 'running' },
      messages: [{ id: 'm1', conversationId: created.id, seq: 0, role: 'assistant', blocks: [{ type: 'text', text: 'half' }], status: 'streaming', createdAt: 1, updatedAt: 1 }],
    });
    await tab.send({ type: 'run.stop', conversationId: created.id });
    const { conversation, messages } = await tab.send({ type: 'conversation.open', conversationId: created.id });
    expect(conversation.runState).toBe('idle');
    // Not "interrupted" with no Continue offered: the reply says it was stopped.
    expect(messages[0]?.status).toBe('stopped');
  });
});

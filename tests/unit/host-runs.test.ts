import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { ModelError, type Model } from '../../src/core/run/model';
import type { Message } from '../../src/schema/records';

async function setup(steps: unknown[], pace?: { chunkDelayMs?: number; chunkSize?: number }) {
  const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
  await tab.send({ type: 'settings.update', script: script(steps, pace) });
  const conversation = await tab.send({ type: 'conversation.create' });
  return { tab, conversationId: conversation.id };
}

function texts(messages: Message[]): string[] {
  return messages.map((message) => message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join(''));
}

async function messagesOf(tab: TestTab, conversationId: string) {
  return (await tab.send({ type: 'conversation.open', conversationId })).messages;
}

describe('the loop with the scripted model', () => {
  it('streams a text step, stores both messages and names the conversation after the first message', async () => {
    const { tab, conversationId } = await setup([{ text: 'You said: {{lastUserMessage}}' }]);
    await tab.send({ type: 'message.send', conversationId, text: 'Plan my weekend' });
    await waitForRunState(tab, conversationId, ['idle']);
    const { conversation, messages } = await tab.send({ type: 'conversation.open', conversationId });
    expect(texts(messages)).toEqual(['Plan my weekend', 'You said: Plan my weekend']);
    expect(messages.map((message) => message.status)).toEqual(['complete', 'complete']);
    expect(conversation.title).toBe('Plan my weekend');
    expect(conversation.completedSteps).toBe(1);
    expect(tab.events.some((event) => event.type === 'message-upserted' && event.message.status === 'streaming')).toBe(true);
  });

  it('stores no words of the UI as a new conversation’s title: it is empty until the first message names it, as is one stored as "New conversation" before', async () => {
    const { tab, conversationId } = await setup([{ text: 'Hi' }, { text: 'Again' }]);
    expect((await tab.host.store.getConversation(conversationId))?.title).toBe('');
    const before = await tab.send({ type: 'conversation.create' });
    await tab.host.store.updateConversation(before.id, (conversation) => ({ ...conversation, title: 'New conversation' }));
    await tab.send({ type: 'message.send', conversationId: before.id, text: '周末做什么？' });
    await waitForRunState(tab, before.id, ['idle']);
    expect((await tab.host.store.getConversation(before.id))?.title).toBe('周末做什么？');
  });

  it('runs a tool call step, then feeds the result to the next step', async () => {
    const { tab, conversationId } = await setup([{ text: 'Checking.', toolCalls: [{ name: 'get_current_time', args: {} }] }, { text: 'Time: {{lastToolResult}}' }]);
    await tab.send({ type: 'message.send', conversationId, text: 'What time is it?' });
    await waitForRunState(tab, conversationId, ['idle']);
    const messages = await messagesOf(tab, conversationId);
    expect(messages).toHaveLength(3);
    const toolBlock = messages[1]!.blocks.find((block) => block.type === 'tool_call');
    expect(toolBlock).toMatchObject({ status: 'success', toolName: 'get_current_time' });
    expect(texts(messages)[2]).toMatch(/^Time: \d{4}-\d{2}-\d{2}T/);
  });

  it('stops on Stop and keeps the text written so far', async () => {
    const { tab, conversationId } = await setup([{ text: 'x'.repeat(2000) }], { chunkDelayMs: 5, chunkSize: 1 });
    await tab.send({ type: 'message.send', conversationId, text: 'go' });
    await expect.poll(async () => texts(await messagesOf(tab, conversationId))[1]?.length ?? 0).toBeGreaterThan(10);
    await tab.send({ type: 'run.stop', conversationId });
    await waitForRunState(tab, conversationId, ['idle']);
    const messages = await messagesOf(tab, conversationId);
    expect(messages[1]!.status).toBe('stopped');
    const kept = texts(messages)[1]!;
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(2000);
  });

  it('marks a run left "running" by a dead tab as interrupted, and Continue completes the same message', async () => {
    const full = 'The quick brown fox jumps over the lazy dog.';
    const { tab, conversationId } = await setup([{ text: full }]);
    // What a tab that died mid-reply leaves behind: running state, a streaming message with a prefix, no lock held.
    const conversation = (await tab.host.store.getConversation(conversationId))!;
    const now = Date.now();
    await tab.host.store.write({
      conversation: { ...conversation, runState: 'running' },
      messages: [
        { id: 'u1', conversationId, seq: 0, role: 'user', blocks: [{ type: 'text', text: 'hi' }], status: 'complete', createdAt: now, updatedAt: now },
        { id: 'a1', conversationId, seq: 1, role: 'assistant', blocks: [{ type: 'text', text: 'The quick brown' }], status: 'streaming', createdAt: now, updatedAt: now },
      ],
    });
    const reopened = await tab.send({ type: 'conversation.open', conversationId });
    expect(reopened.conversation.runState).toBe('interrupted');
    expect(reopened.messages[1]!.status).toBe('interrupted');
    await tab.send({ type: 'run.continue', conversationId });
    await waitForRunState(tab, conversationId, ['idle']);
    const messages = await messagesOf(tab, conversationId);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ id: 'a1', status: 'complete' });
    expect(texts(messages)[1]).toBe(full);
  });

  it('does not mark a conversation interrupted while another tab holds its run lock', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const first = await openTab({ databaseName, locks });
    await first.send({ type: 'settings.update', script: script([{ text: 'y'.repeat(3000) }], { chunkDelayMs: 5, chunkSize: 1 }) });
    const { id: conversationId } = await first.send({ type: 'conversation.create' });
    await first.send({ type: 'message.send', conversationId, text: 'go' });
    await expect.poll(async () => texts(await messagesOf(first, conversationId))[1]?.length ?? 0).toBeGreaterThan(3);
    const second = await openTab({ databaseName, locks });
    expect((await second.send({ type: 'conversation.open', conversationId })).conversation.runState).toBe('running');
    await expect(second.send({ type: 'message.send', conversationId, text: 'again' })).rejects.toMatchObject({ code: 'busy' });
    await first.send({ type: 'run.stop', conversationId });
    await waitForRunState(first, conversationId, ['idle']);
  });

  it('retries a rate-limited step after Retry-After, telling the UI, then completes', async () => {
    let calls = 0;
    const flaky: Model = {
      async *streamStep() {
        calls += 1;
        if (calls === 1) throw new ModelError('rate_limited', 'Rate limited by the provider.', { status: 429, retryAfterMs: 20 });
        yield { type: 'text-delta', text: 'finally' };
        yield { type: 'finish' };
      },
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => flaky });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['idle']);
    expect(texts(await messagesOf(tab, conversationId))[1]).toBe('finally');
    expect(calls).toBe(2);
    const notices = tab.events.filter((event) => event.type === 'run-notice');
    expect(notices.find((event) => event.notice !== null)).toMatchObject({ notice: { kind: 'retrying', attempt: 1 } });
    expect(notices.at(-1)).toMatchObject({ notice: null });
  });

  it('shows an auth error without losing the conversation, and waits for the network when offline', async () => {
    let failure: ModelError | undefined = new ModelError('auth', 'The API key was rejected (401).', { status: 401 });
    const model: Model = {
      async *streamStep() {
        if (failure) throw failure;
        yield { type: 'text-delta', text: 'back online' };
      },
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => model });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['error']);
    let opened = await tab.send({ type: 'conversation.open', conversationId });
    expect(opened.conversation.runError).toEqual({ code: 'auth', message: 'The API key was rejected (401).' });
    expect(opened.messages[0]!.blocks).toEqual([{ type: 'text', text: 'hi' }]);
    expect(opened.messages[1]!.blocks.at(-1)).toMatchObject({ type: 'error', code: 'auth' });

    failure = new ModelError('network', 'You are offline.');
    await tab.send({ type: 'run.continue', conversationId });
    await waitForRunState(tab, conversationId, ['waiting_network']);
    failure = undefined;
    await tab.host.runs.resumeWaiting();
    await waitForRunState(tab, conversationId, ['idle']);
    opened = await tab.send({ type: 'conversation.open', conversationId });
    expect(texts(opened.messages).at(-1)).toBe('back online');
    expect(opened.conversation.runError).toBeUndefined();
  });

  it('keeps a reply cut mid-way as interrupted, and Continue carries on in the same message', async () => {
    let cut = true;
    const model: Model = {
      async *streamStep(request) {
        if (cut) {
          yield { type: 'text-delta', text: 'Half of ' };
          throw new ModelError('bad_stream', 'The answer stopped in the middle.');
        }
        expect(request.continuation?.text).toBe('Half of ');
        yield { type: 'text-delta', text: 'the answer.' };
      },
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => model });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['error']);
    let { messages } = await tab.send({ type: 'conversation.open', conversationId });
    expect(messages[1]).toMatchObject({ status: 'interrupted', blocks: [{ type: 'text', text: 'Half of ' }, { type: 'error', code: 'bad_stream' }] });
    cut = false;
    await tab.send({ type: 'run.continue', conversationId });
    await waitForRunState(tab, conversationId, ['idle']);
    ({ messages } = await tab.send({ type: 'conversation.open', conversationId }));
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ status: 'complete', blocks: [{ type: 'text', text: 'Half of the answer.' }] });
  });

  it('resumes runs waiting for the network when the page says it is back online', async () => {
    let offline = true;
    const model: Model = {
      async *streamStep() {
        if (offline) throw new ModelError('network', 'You are offline.');
        yield { type: 'text-delta', text: 'online again' };
      },
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => model });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'hi' });
    await waitForRunState(tab, conversationId, ['waiting_network']);
    offline = false;
    await tab.send({ type: 'network.online' });
    await waitForRunState(tab, conversationId, ['idle']);
    expect(texts(await messagesOf(tab, conversationId))[1]).toBe('online again');
    // The "waiting for the network" notice is cleared once the run gets through again.
    const notices = tab.events.filter((event) => event.type === 'run-notice' && event.conversationId === conversationId);
    expect(notices.some((event) => event.type === 'run-notice' && event.notice?.kind === 'waiting_network')).toBe(true);
    expect(notices.at(-1)).toMatchObject({ notice: null });
  });
});

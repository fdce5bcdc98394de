import { createEffect, createRoot } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from '../../src/schema/records';
import { replaceInPlace } from '../../src/ui/state/replace-in-place';
import { applyEvent, createInitialState, createUiStore } from '../../src/ui/state/store';

function conversation(id: string, updatedAt: number, runState: Conversation['runState'] = 'idle'): Conversation {
  return { id, title: `Title ${id}`, createdAt: 0, updatedAt, runState, completedSteps: 0 };
}

function message(id: string, seq: number, text: string, extra: Partial<Message> = {}): Message {
  return {
    id,
    conversationId: 'c1',
    seq,
    role: 'assistant',
    blocks: [{ type: 'text', text }],
    status: 'complete',
    createdAt: seq,
    updatedAt: seq,
    ...extra,
  };
}

describe('applyEvent', () => {
  it('orders conversations by updatedAt, newest first, and counts waiting questions', () => {
    const { state, dispatch } = createUiStore();
    dispatch({ type: 'conversations-listed', conversations: [conversation('a', 1), conversation('b', 3), conversation('c', 2, 'awaiting_input')] });
    expect(state.conversationOrder).toEqual(['b', 'c', 'a']);
    expect(state.pendingQuestionCount).toBe(1);
    expect(state.conversationsLoaded).toBe(true);

    dispatch({ type: 'conversation-upserted', conversation: conversation('a', 9, 'awaiting_input') });
    expect(state.conversationOrder).toEqual(['a', 'b', 'c']);
    expect(state.pendingQuestionCount).toBe(2);

    dispatch({ type: 'conversation-upserted', conversation: conversation('c', 2, 'running') });
    expect(state.pendingQuestionCount).toBe(1);
  });

  it('never lets a reply snapshot undo newer events: no stale run state, no dropped conversation', () => {
    const { state, dispatch } = createUiStore();
    // The worker answered "open" with c1 running, but the run ended (an event) before the reply was applied.
    dispatch({ type: 'conversation-upserted', conversation: conversation('c1', 7, 'idle') });
    dispatch({ type: 'conversation-upserted', conversation: conversation('c3', 8) }); // created meanwhile in another tab
    dispatch({ type: 'conversation-opened', conversation: conversation('c1', 5, 'running'), messages: [message('m1', 0, 'partial', { updatedAt: 5, status: 'streaming' })] });
    dispatch({ type: 'conversations-listed', conversations: [conversation('c1', 5, 'running'), conversation('c2', 1)] });
    expect(state.conversations.c1?.runState).toBe('idle');
    expect(state.conversationOrder).toEqual(['c3', 'c1', 'c2']);

    dispatch({ type: 'message-upserted', message: message('m1', 0, 'partial and done', { updatedAt: 9 }) });
    dispatch({ type: 'conversation-opened', conversation: conversation('c1', 7, 'idle'), messages: [message('m1', 0, 'partial', { updatedAt: 5, status: 'streaming' })] });
    expect(state.messages.c1![0]).toMatchObject({ status: 'complete', blocks: [{ text: 'partial and done' }] });
  });

  it('forgets a deleted conversation with its messages and notices', () => {
    const { state, dispatch } = createUiStore();
    dispatch({ type: 'conversation-opened', conversation: conversation('c1', 1), messages: [message('m1', 0, 'hi')] });
    dispatch({ type: 'run-notice', conversationId: 'c1', notice: { kind: 'retrying', message: 'rate limited', retryAt: 5 } });
    dispatch({ type: 'conversation-deleted', conversationId: 'c1' });
    expect(state.conversations.c1).toBeUndefined();
    expect(state.messages.c1).toBeUndefined();
    expect(state.runNotices.c1).toBeUndefined();
  });

  it('keeps messages only for opened conversations, sorted by seq whatever the arrival order', () => {
    const { state, dispatch } = createUiStore();
    dispatch({ type: 'message-upserted', message: message('early', 0, 'ignored') });
    expect(state.messages.c1).toBeUndefined();

    dispatch({ type: 'conversation-opened', conversation: conversation('c1', 1), messages: [message('m2', 2, 'two'), message('m0', 0, 'zero')] });
    dispatch({ type: 'message-upserted', message: message('m1', 1, 'one') });
    dispatch({ type: 'message-upserted', message: message('m3', 3, 'three') });
    expect(state.messages.c1!.map((item) => item.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
  });

  it('replaces a message whole on upsert, keeping its object identity', () => {
    const { state, dispatch } = createUiStore();
    dispatch({
      type: 'conversation-opened',
      conversation: conversation('c1', 1),
      messages: [message('m1', 0, 'Hel', { status: 'streaming', usage: { inputTokens: 3 } })],
    });
    const before = state.messages.c1![0]!;

    dispatch({ type: 'message-upserted', message: message('m1', 0, 'Hello there', { blocks: [{ type: 'text', text: 'Hello there' }, { type: 'error', code: 'x', message: 'boom' }] }) });
    const after = state.messages.c1![0]!;
    expect(after).toBe(before);
    expect(after.status).toBe('complete');
    expect(after.usage).toBeUndefined();
    expect(after.blocks).toEqual([
      { type: 'text', text: 'Hello there' },
      { type: 'error', code: 'x', message: 'boom' },
    ]);

    dispatch({ type: 'message-upserted', message: message('m1', 0, 'Short') });
    expect(state.messages.c1![0]!.blocks).toEqual([{ type: 'text', text: 'Short' }]);
  });

  it('tells only the readers of what changed: a streamed text update reruns its own effect', () => {
    const { state, dispatch } = createUiStore();
    dispatch({ type: 'conversation-opened', conversation: conversation('c1', 1), messages: [message('m0', 0, 'first'), message('m1', 1, 'a')] });
    const seenTexts: string[] = [];
    let firstMessageRuns = 0;
    const dispose = createRoot((disposeRoot) => {
      createEffect(() => {
        const block = state.messages.c1![1]!.blocks[0]!;
        if (block.type === 'text') seenTexts.push(block.text);
      });
      createEffect(() => {
        void state.messages.c1![0]!.blocks[0];
        void (state.messages.c1![0]!.blocks[0] as { text: string }).text;
        firstMessageRuns += 1;
      });
      return disposeRoot;
    });
    dispatch({ type: 'message-upserted', message: message('m1', 1, 'ab') });
    dispatch({ type: 'message-upserted', message: message('m1', 1, 'abc') });
    dispose();
    expect(seenTexts).toEqual(['a', 'ab', 'abc']);
    expect(firstMessageRuns).toBe(1);
  });

  it('forgets a deleted conversation, and sets and clears run notices, settings, profiles, storage errors', () => {
    const state = createInitialState();
    applyEvent(state, { type: 'conversation-opened', conversation: conversation('c1', 1, 'awaiting_input'), messages: [] });
    applyEvent(state, { type: 'run-notice', conversationId: 'c1', notice: { kind: 'waiting_network', message: 'offline' } });
    expect(state.runNotices.c1?.kind).toBe('waiting_network');
    applyEvent(state, { type: 'run-notice', conversationId: 'c1', notice: null });
    expect(state.runNotices.c1).toBeUndefined();

    applyEvent(state, { type: 'conversation-deleted', conversationId: 'c1' });
    expect(state.conversations.c1).toBeUndefined();
    expect(state.messages.c1).toBeUndefined();
    expect(state.conversationOrder).toEqual([]);
    expect(state.pendingQuestionCount).toBe(0);

    applyEvent(state, { type: 'settings-changed', settings: { script: '[]', defaultProfileId: 'scripted', locale: 'zh-CN' } });
    applyEvent(state, { type: 'profiles-changed', profiles: [{ id: 'scripted', name: 'Scripted', kind: 'scripted', baseUrl: '', model: '', apiKeyMasked: '' }] });
    applyEvent(state, { type: 'worker-ready' });
    applyEvent(state, { type: 'storage-error', message: 'Quota exceeded' });
    expect(state.settings?.locale).toBe('zh-CN');
    expect(state.profiles.map((profile) => profile.id)).toEqual(['scripted']);
    expect(state.workerReady).toBe(true);
    expect(state.storageError).toBe('Quota exceeded');
    applyEvent(state, { type: 'storage-error-dismissed' });
    expect(state.storageError).toBeUndefined();
  });
});

describe('replaceInPlace', () => {
  it('makes the target equal the source, reusing nested objects of the same kind', () => {
    const nested = { type: 'text', text: 'old' };
    const target: Record<string, unknown> = { blocks: [nested, { type: 'text', text: 'gone' }], stale: true };
    replaceInPlace(target, { blocks: [{ type: 'text', text: 'new' }] });
    expect(target).toEqual({ blocks: [{ type: 'text', text: 'new' }] });
    expect((target.blocks as unknown[])[0]).toBe(nested);

    replaceInPlace(target, { blocks: [{ type: 'error', code: 'e', message: 'm' }] });
    expect((target.blocks as unknown[])[0]).not.toBe(nested);
    expect(target).toEqual({ blocks: [{ type: 'error', code: 'e', message: 'm' }] });
  });
});

describe('applyEvent with paged messages', () => {
  const opened = (messages: Message[], earlier: number) => ({ type: 'conversation-opened' as const, conversation: conversation('c1', 1), messages, earlier });

  it('counts the stored messages not read yet, and merges earlier pages in seq order', () => {
    const state = createInitialState();
    applyEvent(state, opened([message('m5', 5, 'five'), message('m6', 6, 'six')], 5));
    expect(state.earlierMessages.c1).toBe(5);
    applyEvent(state, { type: 'message-page-loaded', conversationId: 'c1', messages: [message('m3', 3, 'three'), message('m4', 4, 'four')], earlier: 3 });
    expect(state.messages.c1!.map((item) => item.seq)).toEqual([3, 4, 5, 6]);
    expect(state.earlierMessages.c1).toBe(3);
  });

  it('ignores an event about an old message that was not read, so the loaded messages stay contiguous', () => {
    const state = createInitialState();
    applyEvent(state, opened([message('m5', 5, 'five')], 5));
    applyEvent(state, { type: 'message-upserted', message: message('m1', 1, 'changed elsewhere', { updatedAt: 99 }) });
    expect(state.messages.c1!.map((item) => item.seq)).toEqual([5]);
    applyEvent(state, { type: 'message-upserted', message: message('m7', 7, 'new') });
    expect(state.messages.c1!.map((item) => item.seq)).toEqual([5, 7]);
  });

  it('keeps earlier pages already read when the conversation is opened again', () => {
    const state = createInitialState();
    applyEvent(state, opened([message('m5', 5, 'five'), message('m6', 6, 'six')], 5));
    applyEvent(state, { type: 'message-page-loaded', conversationId: 'c1', messages: [message('m3', 3, 'three'), message('m4', 4, 'four')], earlier: 3 });
    applyEvent(state, opened([message('m6', 6, 'six'), message('m7', 7, 'seven')], 6));
    expect(state.messages.c1!.map((item) => item.seq)).toEqual([3, 4, 5, 6, 7]);
    expect(state.earlierMessages.c1).toBe(3);
  });
});

describe('applyEvent with sync', () => {
  const laptop = { id: 'laptop-id', name: 'Laptop' };
  const phone = { id: 'phone-id', name: 'Phone' };

  it('keeps the latest sync status whole, and the conversations other devices run as the worker lists them', () => {
    const { state, dispatch } = createUiStore();
    expect(state.sync).toBeUndefined();
    expect(state.runners).toEqual({});
    dispatch({ type: 'sync-status', status: { state: 'syncing', device: phone, progress: { done: 120, total: 3400 }, url: 'https://couch.example.com/parley' } });
    dispatch({ type: 'sync-runners', runners: { c1: laptop, c2: laptop } });
    expect(state.sync).toMatchObject({ state: 'syncing', progress: { done: 120, total: 3400 } });
    // A later status replaces the earlier one: no stale progress on a synced status.
    dispatch({ type: 'sync-status', status: { state: 'synced', device: phone, lastSyncedAt: 5 } });
    expect(state.sync).toEqual({ state: 'synced', device: phone, lastSyncedAt: 5 });
    // c1 taken over by this device: the list no longer holds it, and the store must not keep it from before.
    dispatch({ type: 'sync-runners', runners: { c2: laptop } });
    expect(state.runners).toEqual({ c2: laptop });
  });

  it('forgets every remote runner when sync is turned off: each conversation is this device\'s again', () => {
    const state = createInitialState();
    applyEvent(state, { type: 'sync-status', status: { state: 'synced', device: phone } });
    applyEvent(state, { type: 'sync-runners', runners: { c1: laptop } });
    applyEvent(state, { type: 'sync-status', status: { state: 'offline', device: phone } });
    expect(state.runners).toEqual({ c1: laptop });
    applyEvent(state, { type: 'sync-status', status: { state: 'off', device: phone } });
    expect(state.runners).toEqual({});
    expect(state.sync?.state).toBe('off');
  });
});

import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName, answerCommand } from './host-harness';
import { DATABASE_VERSION, openParleyDatabase } from '../../src/worker/store/database';
import { serveCommands } from '../../src/worker/tabs/channel-server';
import type { ReplyEnvelope, WorkerMessage } from '../../src/schema/protocol';
import type { Conversation, Message } from '../../src/schema/records';
import { resolveInput } from '../../src/worker/settings/settings-writes';

const now = 1_700_000_000_000;
const conversation: Conversation = { id: 'c1', title: 'Old one', createdAt: now, updatedAt: now, runState: 'awaiting_input', completedSteps: 1 };
const question = { header: 'H', question: 'Q?', options: [{ label: 'A' }], multiple: false, custom: true };
/** The message as version 1 stored it: its question in the shape before one request shape. */
const versionOneMessage = {
  id: 'm1',
  conversationId: 'c1',
  seq: 0,
  role: 'assistant',
  status: 'complete',
  createdAt: now,
  updatedAt: now,
  pendingQuestionId: 'call_0_0',
  blocks: [{ type: 'question_request', toolCallId: 'call_0_0', status: 'pending', questions: [question] }],
};
const message: Message = { ...versionOneMessage, role: 'assistant', status: 'complete', blocks: [{ type: 'request', kind: 'question', requestId: 'call_0_0', toolCallId: 'call_0_0', status: 'pending', payload: { questions: [question] } }] };

/** Builds a version-1 database with raw IndexedDB calls, exactly as the first release laid it out. */
function buildVersionOneDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      const database = request.result;
      const conversations = database.createObjectStore('conversations', { keyPath: 'id' });
      conversations.createIndex('by-updated', 'updatedAt');
      conversations.createIndex('by-run-state', 'runState');
      const messages = database.createObjectStore('messages', { keyPath: 'id' });
      messages.createIndex('by-conversation', ['conversationId', 'seq'], { unique: true });
      messages.createIndex('by-pending-question', 'pendingQuestionId');
      database.createObjectStore('settings');
      database.createObjectStore('profiles', { keyPath: 'id' });
      conversations.put(conversation);
      messages.put(versionOneMessage);
    };
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

describe('storage', () => {
  it('opens a database built at version 1 and keeps its records; a pending question moves to the one request index', async () => {
    const name = uniqueDatabaseName();
    await buildVersionOneDatabase(name);
    const database = await openParleyDatabase(name);
    expect(database.version).toBe(DATABASE_VERSION);
    expect([...database.objectStoreNames].sort()).toEqual(['attachments', 'conversations', 'messages', 'profiles', 'settings']);
    expect([...database.transaction('messages').store.indexNames].sort()).toEqual(['by-conversation', 'by-pending-request']);
    expect(await database.get('conversations', 'c1')).toEqual(conversation);
    const { pendingQuestionId: _legacy, ...migrated } = message;
    expect(await database.getAllFromIndex('messages', 'by-pending-request')).toEqual([{ ...migrated, pendingRequestId: 'call_0_0' }]);
    expect(await database.getAllFromIndex('conversations', 'by-run-state', 'awaiting_input')).toEqual([conversation]);
    database.close();
  });

  it('keeps a question that was pending before the upgrade listed and answerable after it, exactly once', async () => {
    const databaseName = uniqueDatabaseName();
    await buildVersionOneDatabase(databaseName);
    const tab = await openTab({ databaseName, locks: memoryLocks() });
    const target = { conversationId: 'c1', messageId: 'm1', toolCallId: 'call_0_0' };
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([expect.objectContaining({ request: expect.objectContaining({ kind: 'question', requestId: 'call_0_0' }), conversationTitle: 'Old one' })]);
    await tab.send(answerCommand(target, [{ selected: ['A'] }]));
    await expect(tab.send(answerCommand(target, [{ selected: ['A'] }]))).rejects.toMatchObject({ code: 'already_resolved' });
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([]);
  });

  it('round-trips conversations and messages through the store in order', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.host.store.write({ conversation, messages: [{ ...message, id: 'm2', seq: 1, blocks: [{ type: 'text', text: 'second' }] }, message] });
    expect(await tab.host.store.listMessages('c1')).toEqual([message, { ...message, id: 'm2', seq: 1, blocks: [{ type: 'text', text: 'second' }] }]);
    expect(await tab.host.store.getConversation('c1')).toEqual(conversation);
    await tab.send({ type: 'conversation.delete', conversationId: 'c1' });
    expect(await tab.host.store.listMessages('c1')).toEqual([]);
    expect(tab.events).toContainEqual({ type: 'conversation-deleted', conversationId: 'c1' });
  });

  it('does not resurrect a conversation deleted under a run (ifExists writes)', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    expect(await tab.host.store.write({ messages: [message] }, { ifExists: true })).toBe(false);
    expect(await tab.host.store.listMessages('c1')).toEqual([]);
  });
});

describe('keys', () => {
  it('masks keys towards the UI and leaves them out of exports', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const key = 'sk-test-SECRET-1234567890';
    const saved = await tab.send({ type: 'profiles.save', profile: { name: 'OpenAI', kind: 'openai-compatible', baseUrl: 'https://api.example.test/v1/', apiKey: key, model: 'gpt-x' } });
    expect(saved).toMatchObject({ baseUrl: 'https://api.example.test/v1', apiKeyMasked: '••••7890' });
    expect(JSON.stringify(saved)).not.toContain('SECRET');
    expect(JSON.stringify(await tab.send({ type: 'profiles.list' }))).not.toContain('SECRET');
    await tab.send({ type: 'conversation.create', title: 'Keep me' });
    expect(JSON.stringify(await tab.send({ type: 'conversation.export' }))).not.toContain('SECRET');
    expect(JSON.stringify(tab.events)).not.toContain('SECRET');
    // Saving without a key keeps the stored one.
    await tab.send({ type: 'profiles.save', profile: { id: saved.id, name: 'Renamed', kind: 'openai-compatible', baseUrl: 'https://api.example.test/v1', model: 'gpt-y' } });
    expect((await tab.host.settings.getProfile(saved.id))?.apiKey).toBe(key);
  });
});

describe('keys follow only their own server', () => {
  it('does not reuse a stored key when an edit points the profile at another origin or provider', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const saved = await tab.send({ type: 'profiles.save', profile: { name: 'OpenAI', kind: 'openai-compatible', baseUrl: 'https://api.openai.test/v1', apiKey: 'sk-OPENAI-KEY-1234', model: 'm' } });
    const sameServer = await resolveInput(tab.host.settings, { id: saved.id, name: 'OpenAI', kind: 'openai-compatible', baseUrl: 'https://api.openai.test/v2', model: 'm' });
    expect(sameServer.apiKey).toBe('sk-OPENAI-KEY-1234');
    const otherHost = await resolveInput(tab.host.settings, { id: saved.id, name: 'OpenAI', kind: 'openai-compatible', baseUrl: 'https://evil.test/v1', model: 'm' });
    expect(otherHost.apiKey).toBe('');
    const otherKind = await resolveInput(tab.host.settings, { id: saved.id, name: 'OpenAI', kind: 'anthropic', baseUrl: 'https://api.openai.test/v1', model: 'm' });
    expect(otherKind.apiKey).toBe('');
    await tab.send({ type: 'profiles.save', profile: { id: saved.id, name: 'Moved', kind: 'openai-compatible', baseUrl: 'https://evil.test/v1', model: 'm' } });
    expect((await tab.host.settings.getProfile(saved.id))?.apiKey).toBe('');
  });

  it('refuses an unknown default profile without an unhandled rejection', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    await expect(tab.send({ type: 'settings.update', defaultProfileId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
});

describe('the command channel', () => {
  it('answers malformed commands with invalid_command and changes nothing', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const { port1, port2 } = new MessageChannel();
    serveCommands(port1 as never, tab.host.handle);
    port1.start();
    const replies: ReplyEnvelope[] = [];
    port2.addEventListener('message', (event) => {
      const data = (event as MessageEvent<WorkerMessage>).data;
      if (data.kind === 'reply') replies.push(data);
    });
    port2.start();
    const malformed: unknown[] = [
      { type: 'no.such.command' },
      { type: 'message.send', conversationId: 'c1' },
      { type: 'message.send', conversationId: 'c1', text: '   ' },
      { type: 'request.resolve', conversationId: 'c1', messageId: 'm1', requestId: 't', approved: 'yes' },
      { type: 'conversation.rename', conversationId: 42, title: 'x' },
      null,
      'conversation.list',
    ];
    malformed.forEach((command, index) => port2.postMessage({ kind: 'command', id: `cmd-${index}`, command }));
    port2.postMessage({ kind: 'command', command: { type: 'conversation.create' } }); // no id: unanswerable, dropped
    port2.postMessage({ kind: 'command', id: 'last', command: { type: 'conversation.list' } });
    await expect.poll(() => replies.length).toBe(malformed.length + 1);
    for (const reply of replies.slice(0, -1)) expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    expect(replies.at(-1)).toEqual({ kind: 'reply', id: 'last', ok: true, result: [] });
    expect(tab.events).toEqual([]);
    port2.close();
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { isPendingRequest, requestIdOf } from '../../src/core/requests/request-ids';
import { openParleyDatabase } from '../../src/worker/store/database';
import type { Conversation, ConversationExport, Message } from '../../src/schema/records';

// Written by the build before requests had one shape (tests/unit/request-fixture-writer.ts): every request
// kind in every state, as IndexedDB held it and as an export wrote it. Never rewritten.
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/requests/${name}`, import.meta.url), 'utf8'));
const stored = fixture('database-v4.json') as { version: number; conversations: Conversation[]; messages: Message[] };
const exported = fixture('export-v4.json') as ConversationExport;

/** A database as the older build left it: created at its version, its records put back with raw writes. */
async function oldDatabase(): Promise<string> {
  const name = uniqueDatabaseName();
  const old = await openParleyDatabase(name, stored.version);
  const transaction = old.transaction(['conversations', 'messages'], 'readwrite');
  await Promise.all([...stored.conversations.map((record) => transaction.objectStore('conversations').put(record)), ...stored.messages.map((record) => transaction.objectStore('messages').put(record))]);
  await transaction.done;
  old.close();
  return name;
}

const idOf = (title: string) => stored.conversations.find((conversation) => conversation.title === title)!.id;

async function requestsIn(tab: TestTab, title: string) {
  const { conversation, messages } = await tab.send({ type: 'conversation.open', conversationId: idOf(title) });
  const requests = messages.flatMap((message) => message.blocks.filter((block) => requestIdOf(block) !== undefined).map((block) => ({ messageId: message.id, block })));
  return { conversation, requests };
}

const pendingTarget = async (tab: TestTab, title: string) => {
  const { requests } = await requestsIn(tab, title);
  const { messageId, block } = requests.find((request) => isPendingRequest(request.block))!;
  return { conversationId: idOf(title), messageId, requestId: requestIdOf(block)! };
};

describe('a database written by the build before one request shape', () => {
  it('opens with every request as it was decided, and lists what still waits', async () => {
    const tab = await openTab({ databaseName: await oldDatabase(), locks: memoryLocks() });
    expect((await requestsIn(tab, 'answered question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'question_request', status: 'success', resolution: 'answered', answers: [{ selected: ['Beach'] }] })]);
    expect((await requestsIn(tab, 'dismissed question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'question_request', status: 'denied', resolution: 'dismissed' })]);
    expect((await requestsIn(tab, 'allowed tool call')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'tool_call', status: 'success', args: { path: 'b.txt' }, approval: expect.objectContaining({ status: 'success', resolution: 'edited', originalArgs: { path: 'a.txt' } }) })]);
    expect((await requestsIn(tab, 'denied tool call')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'tool_call', status: 'denied', approval: expect.objectContaining({ resolution: 'denied', reason: 'Not that file' }) })]);
    expect((await requestsIn(tab, 'accepted elicitation')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'elicitation_request', status: 'success', resolution: 'accepted', content: { name: 'Ada' } })]);
    // The tab that ran the elicitation's tool is gone: it is closed as interrupted, and the call may be run again.
    const elicitation = await requestsIn(tab, 'pending elicitation');
    expect(elicitation.requests.map(({ block }) => block)).toEqual([
      expect.objectContaining({ type: 'tool_call', status: 'interrupted', approval: expect.objectContaining({ kind: 'rerun', status: 'pending' }) }),
      expect.objectContaining({ type: 'elicitation_request', status: 'denied', resolution: 'interrupted' }),
    ]);
    const pending = await tab.send({ type: 'requests.listPending' });
    expect(pending.map((request) => [request.conversationTitle, request.kind]).sort()).toEqual([
      ['pending approval', 'approval'],
      ['pending elicitation', 'approval'],
      ['pending question', 'question'],
    ]);
  });

  it('still resolves each pending request once, and the run goes on', async () => {
    const tab = await openTab({ databaseName: await oldDatabase(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: JSON.stringify({ steps: [{ text: 'unused' }, { text: 'Saw: {{lastToolResult}}' }], chunkDelayMs: 0, chunkSize: 50 }) });
    const question = await pendingTarget(tab, 'pending question');
    await tab.send({ type: 'request.resolve', ...question, approved: true, params: { answers: [{ selected: ['City'] }] } });
    await waitForRunState(tab, question.conversationId, ['idle']);
    expect((await requestsIn(tab, 'pending question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ status: 'success', resolution: 'answered', answers: [{ selected: ['City'] }] })]);
    await expect(tab.send({ type: 'request.resolve', ...question, approved: false })).rejects.toMatchObject({ code: 'already_resolved', outcome: { resolution: 'answered' } });

    const approval = await pendingTarget(tab, 'pending approval');
    await tab.send({ type: 'request.resolve', ...approval, approved: false, reason: 'no' });
    await waitForRunState(tab, approval.conversationId, ['idle']);
    expect((await requestsIn(tab, 'pending approval')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ status: 'denied', approval: expect.objectContaining({ resolution: 'denied', reason: 'no' }) })]);
    expect((await tab.send({ type: 'requests.listPending' })).map((request) => request.conversationTitle)).toEqual(['pending elicitation']);
  });
});

describe('an export written by the build before one request shape', () => {
  it('imports every conversation; what waited comes closed, as nothing imported waits', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const result = await tab.send({ type: 'conversation.import', data: exported });
    expect(result.imported).toBe(8);
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([]);
    expect((await requestsIn(tab, 'answered question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'question_request', resolution: 'answered', answers: [{ selected: ['Beach'] }] })]);
    expect((await requestsIn(tab, 'allowed tool call')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'tool_call', status: 'success', approval: expect.objectContaining({ resolution: 'edited' }) })]);
    expect((await requestsIn(tab, 'accepted elicitation')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'elicitation_request', resolution: 'accepted', content: { name: 'Ada' } })]);
    for (const title of ['pending question', 'pending approval', 'pending elicitation']) {
      const { conversation, requests } = await requestsIn(tab, title);
      expect(conversation.runState).not.toBe('awaiting_input');
      expect(requests.some(({ block }) => isPendingRequest(block))).toBe(false);
    }
  });
});

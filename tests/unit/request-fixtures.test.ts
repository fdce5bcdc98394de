import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { isPendingRequest, requestIdOf } from '../../src/core/requests/request-ids';
import { DATABASE_VERSION, openParleyDatabase } from '../../src/worker/store/database';
import * as z from '../../src/schema/zod-mini';
import { zodTool } from '../../src/core/tools/tools';
import type { Tool } from '../../src/core/tools/tool';
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
  const calls = messages.flatMap((message) => message.blocks.filter((block) => block.type === 'tool_call'));
  return { conversation, requests, calls };
}

/** No block of the shapes before one request shape is left (see upgradeBlocks). */
function expectOneShape(messages: readonly Message[]): void {
  for (const block of messages.flatMap((message) => message.blocks)) {
    expect(['question_request', 'elicitation_request']).not.toContain(block.type);
    expect(block).not.toHaveProperty('approval');
  }
}

const pendingTarget = async (tab: TestTab, title: string) => {
  const { requests } = await requestsIn(tab, title);
  const { messageId, block } = requests.find((request) => isPendingRequest(request.block))!;
  return { conversationId: idOf(title), messageId, requestId: requestIdOf(block)! };
};

describe('a database written by the build before one request shape', () => {
  it('opens with every request in the one stored shape, as it was decided, and lists what still waits', async () => {
    const databaseName = await oldDatabase();
    const tab = await openTab({ databaseName, locks: memoryLocks() });
    expect((await requestsIn(tab, 'answered question')).requests.map(({ block }) => block)).toEqual([
      expect.objectContaining({ type: 'request', kind: 'question', requestId: 'call_0_0', status: 'success', resolution: 'answered', payload: { questions: [expect.objectContaining({ question: 'Where?' })] }, response: expect.objectContaining({ answers: [{ selected: ['Beach'] }], toolResult: expect.stringContaining('Beach') }) }),
    ]);
    expect((await requestsIn(tab, 'dismissed question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'request', kind: 'question', status: 'denied', resolution: 'dismissed' })]);
    const allowed = await requestsIn(tab, 'allowed tool call');
    expect(allowed.calls).toEqual([expect.objectContaining({ status: 'success', args: { path: 'b.txt' }, originalArgs: { path: 'a.txt' }, binding: expect.objectContaining({ toolName: 'mcp__files__write_file' }) })]);
    expect(allowed.requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'request', kind: 'permission', status: 'success', resolution: 'edited', payload: { toolName: 'mcp__files__write_file' } })]);
    const denied = await requestsIn(tab, 'denied tool call');
    expect(denied.calls).toEqual([expect.objectContaining({ status: 'denied' })]);
    expect(denied.requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'request', kind: 'permission', status: 'denied', resolution: 'denied', response: { reason: 'Not that file' } })]);
    expect((await requestsIn(tab, 'accepted elicitation')).requests.map(({ block }) => block)).toEqual([
      expect.objectContaining({ type: 'request', kind: 'elicitation', status: 'success', resolution: 'accepted', payload: expect.objectContaining({ message: expect.any(String) }), response: { content: { name: 'Ada' } } }),
    ]);
    // The tab that ran the elicitation's tool is gone: it is closed as interrupted, and the call may be run again.
    const elicitation = await requestsIn(tab, 'pending elicitation');
    expect(elicitation.calls).toEqual([expect.objectContaining({ status: 'interrupted' })]);
    expect(elicitation.requests.map(({ block }) => block)).toEqual([
      expect.objectContaining({ type: 'request', kind: 'rerun', status: 'pending' }),
      expect.objectContaining({ type: 'request', kind: 'elicitation', status: 'denied', resolution: 'interrupted' }),
    ]);
    const pending = await tab.send({ type: 'requests.listPending' });
    expect(pending.map(({ conversationTitle, request }) => [conversationTitle, request.kind]).sort()).toEqual([
      ['pending approval', 'permission'],
      ['pending elicitation', 'rerun'],
      ['pending question', 'question'],
    ]);
    // Every stored record was rewritten by the migration, not only the ones read.
    const database = await openParleyDatabase(databaseName);
    expect(database.version).toBe(DATABASE_VERSION);
    expectOneShape(await database.getAll('messages'));
    database.close();
  });

  it('still resolves each pending request once, and the run goes on', async () => {
    const tab = await openTab({ databaseName: await oldDatabase(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: JSON.stringify({ steps: [{ text: 'unused' }, { text: 'Saw: {{lastToolResult}}' }], chunkDelayMs: 0, chunkSize: 50 }) });
    const question = await pendingTarget(tab, 'pending question');
    await tab.send({ type: 'request.resolve', ...question, approved: true, params: { answers: [{ selected: ['City'] }] } });
    await waitForRunState(tab, question.conversationId, ['idle']);
    expect((await requestsIn(tab, 'pending question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ status: 'success', resolution: 'answered', response: expect.objectContaining({ answers: [{ selected: ['City'] }] }) })]);
    await expect(tab.send({ type: 'request.resolve', ...question, approved: false })).rejects.toMatchObject({ code: 'already_resolved', outcome: { resolution: 'answered' } });

    const approval = await pendingTarget(tab, 'pending approval');
    await tab.send({ type: 'request.resolve', ...approval, approved: false, reason: 'no' });
    await waitForRunState(tab, approval.conversationId, ['idle']);
    const refused = await requestsIn(tab, 'pending approval');
    expect(refused.requests.map(({ block }) => block)).toEqual([expect.objectContaining({ kind: 'permission', status: 'denied', resolution: 'denied', response: { reason: 'no' } })]);
    expect(refused.calls).toEqual([expect.objectContaining({ status: 'denied', result: expect.stringContaining('no') })]);
    expect((await tab.send({ type: 'requests.listPending' })).map((request) => request.conversationTitle)).toEqual(['pending elicitation']);
  });
  it('lets the pending approval be Allowed: its call runs exactly once, bound to what was approved', async () => {
    const runs: unknown[] = [];
    const tool: Tool = {
      ...zodTool({ name: 'mcp__files__write_file', description: 'Writes a file.', input: z.strictObject({ path: z.string().check(z.minLength(1)) }), execute: async (args) => (runs.push(args), { text: 'wrote it' }) }),
      permission: 'ask',
      source: { kind: 'mcp', serverId: 'files', serverName: 'files', toolName: 'write_file', origin: 'http://files.test' },
    };
    const tab = await openTab({ databaseName: await oldDatabase(), locks: memoryLocks(), tools: [tool] });
    await tab.send({ type: 'settings.update', script: JSON.stringify({ steps: [{ text: 'unused' }, { text: 'Saw: {{lastToolResult}}' }], chunkDelayMs: 0, chunkSize: 50 }) });
    const approval = await pendingTarget(tab, 'pending approval');
    await tab.send({ type: 'request.resolve', ...approval, approved: true });
    await waitForRunState(tab, approval.conversationId, ['idle']);
    await expect(tab.send({ type: 'request.resolve', ...approval, approved: true })).rejects.toMatchObject({ code: 'already_resolved', outcome: { resolution: 'approved' } });
    expect(runs).toEqual([{ path: 'a.txt' }]);
    const allowed = await requestsIn(tab, 'pending approval');
    expect(allowed.calls).toEqual([expect.objectContaining({ status: 'success', result: 'wrote it', binding: expect.objectContaining({ toolName: 'mcp__files__write_file', origin: 'http://files.test' }) })]);
    expect(allowed.requests.map(({ block }) => block)).toEqual([expect.objectContaining({ kind: 'permission', status: 'success', resolution: 'approved' })]);
  });
});

describe('an export written by the build before one request shape', () => {
  it('imports every conversation; what waited comes closed, as nothing imported waits', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const result = await tab.send({ type: 'conversation.import', data: exported });
    expect(result.imported).toBe(8);
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([]);
    expect((await requestsIn(tab, 'answered question')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'request', kind: 'question', resolution: 'answered', response: expect.objectContaining({ answers: [{ selected: ['Beach'] }] }) })]);
    const allowed = await requestsIn(tab, 'allowed tool call');
    expect(allowed.calls).toEqual([expect.objectContaining({ status: 'success', originalArgs: { path: 'a.txt' } })]);
    expect(allowed.requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'request', kind: 'permission', resolution: 'edited' })]);
    expect((await requestsIn(tab, 'accepted elicitation')).requests.map(({ block }) => block)).toEqual([expect.objectContaining({ type: 'request', kind: 'elicitation', resolution: 'accepted', response: { content: { name: 'Ada' } } })]);
    for (const title of ['pending question', 'pending approval', 'pending elicitation']) {
      const { conversation, requests } = await requestsIn(tab, title);
      expect(conversation.runState).not.toBe('awaiting_input');
      expect(requests.some(({ block }) => isPendingRequest(block))).toBe(false);
    }
  });
});

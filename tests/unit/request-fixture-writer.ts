/**
 * Writes the request fixtures with the build it runs in: a database holding every kind of request in every state, as
 * the raw IndexedDB records (`tests/fixtures/requests/database-v4.json`), and the same conversations as `conversation.export` writes them
 * (`export-v4.json` beside it). Not part of the unit suite (its name is not `*.test.ts`): run it only to record a build's data, with
 * `npx vitest run --config tests/fixtures/requests/vitest.config.ts`. Committed fixtures must never be rewritten by a
 * later build: the migration tests read them as the data an older Parley left behind.
 */
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as z from '../../src/schema/zod-mini';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { zodTool } from '../../src/core/tools/tools';
import type { Tool } from '../../src/core/tools/tool';
import { openParleyDatabase } from '../../src/worker/store/database';

const source = (serverName: string, toolName: string) => ({ kind: 'mcp' as const, serverId: serverName, serverName, toolName, origin: `http://${serverName}.test` });

const writeFile: Tool = {
  ...zodTool({ name: 'mcp__files__write_file', description: 'Writes a file.', input: z.strictObject({ path: z.string().check(z.minLength(1)) }), execute: async (args) => ({ text: `wrote ${(args as { path: string }).path}` }) }),
  permission: 'ask',
  source: { ...source('files', 'write_file'), annotations: { destructiveHint: true } },
};

const askName: Tool = {
  ...zodTool({
    name: 'mcp__forms__ask_name',
    description: 'Asks who a file is for.',
    input: z.strictObject({}),
    async execute(_args, context) {
      const response = await context.elicit!({ message: 'Who is the file for?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } });
      return { text: `response ${JSON.stringify(response)}` };
    },
  }),
  permission: 'allow',
  source: source('forms', 'ask_name'),
};

const QUESTION = { text: 'First:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] };
const WRITE = { text: 'Writing it.', toolCalls: [{ name: 'mcp__files__write_file', args: { path: 'a.txt' } }] };
const ELICIT = { text: 'Asking.', toolCalls: [{ name: 'mcp__forms__ask_name', args: {} }] };
const ECHO = { text: 'Saw: {{lastToolResult}}' };

/** A conversation titled `title` whose first reply follows `step`, left where the run first waits for the user. */
async function untilRequest(tab: TestTab, title: string, step: unknown) {
  await tab.send({ type: 'settings.update', script: script([step, ECHO]) });
  const { id: conversationId } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId, text: title });
  // Not waitForRunState: a tool waiting on an elicitation keeps its run going.
  await expect.poll(async () => (await tab.send({ type: 'conversation.open', conversationId })).messages.at(-1)?.pendingRequestId, { timeout: 10_000 }).toBeTruthy();
  const { messages } = await tab.send({ type: 'conversation.open', conversationId });
  const message = messages.at(-1)!;
  return { conversationId, messageId: message.id, requestId: message.pendingRequestId! };
}

it('records every request kind in every state', async () => {
  const databaseName = uniqueDatabaseName();
  const tab = await openTab({ databaseName, locks: memoryLocks(), tools: [writeFile, askName] });
  await untilRequest(tab, 'pending question', QUESTION);
  const answered = await untilRequest(tab, 'answered question', QUESTION);
  await tab.send({ type: 'request.resolve', ...answered, approved: true, params: { answers: [{ selected: ['Beach'] }] } });
  await waitForRunState(tab, answered.conversationId, ['idle']);
  const dismissed = await untilRequest(tab, 'dismissed question', QUESTION);
  await tab.send({ type: 'request.resolve', ...dismissed, approved: false });
  await waitForRunState(tab, dismissed.conversationId, ['idle']);
  await untilRequest(tab, 'pending approval', WRITE);
  const allowed = await untilRequest(tab, 'allowed tool call', WRITE);
  await tab.send({ type: 'request.resolve', ...allowed, approved: true, params: { path: 'b.txt' } });
  await waitForRunState(tab, allowed.conversationId, ['idle']);
  const denied = await untilRequest(tab, 'denied tool call', WRITE);
  await tab.send({ type: 'request.resolve', ...denied, approved: false, reason: 'Not that file' });
  await waitForRunState(tab, denied.conversationId, ['idle']);
  const accepted = await untilRequest(tab, 'accepted elicitation', ELICIT);
  await tab.send({ type: 'request.resolve', ...accepted, approved: true, params: { name: 'Ada' } });
  await waitForRunState(tab, accepted.conversationId, ['idle']);
  // Last: its tool waits for the answer while the records are read, as a tab closed at that moment leaves them.
  await untilRequest(tab, 'pending elicitation', ELICIT);

  const exported = await tab.send({ type: 'conversation.export' });
  const database = await openParleyDatabase(databaseName);
  const records = { version: database.version, conversations: await database.getAll('conversations'), messages: await database.getAll('messages') };
  expect(records.conversations).toHaveLength(8);
  writeFileSync(new URL('../fixtures/requests/database-v4.json', import.meta.url), `${JSON.stringify(records, null, 1)}\n`);
  writeFileSync(new URL('../fixtures/requests/export-v4.json', import.meta.url), `${JSON.stringify(exported, null, 1)}\n`);
});

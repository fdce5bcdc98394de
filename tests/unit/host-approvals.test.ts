import { describe, expect, it } from 'vitest';
import * as z from '../../src/schema/zod-mini';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { zodTool } from '../../src/core/tools/tools';
import type { ElicitationResponse, Tool, ToolContext } from '../../src/core/tools/tool';
import type { ApprovalRequest, Block, ToolCallBlock } from '../../src/schema/messages/blocks';
import { approvalOf } from '../../src/schema/messages/approvals';
import type { Message } from '../../src/schema/records';
import type { Locks } from '../../src/worker/runs/locks';

/** An MCP-like tool whose permission is "Ask every time"; it records each run, and `behaviour` decides what it does. */
function askTool(behaviour: (args: { path: string }, context: ToolContext) => Promise<string> = async (args) => `wrote ${args.path}`) {
  const runs: Array<{ path: string }> = [];
  const tool: Tool = {
    ...zodTool({
      name: 'mcp__files__write_file',
      description: 'Writes a file.',
      input: z.strictObject({ path: z.string().check(z.minLength(1)) }),
      async execute(args, context) {
        runs.push(args as { path: string });
        return { text: await behaviour(args as { path: string }, context) };
      },
    }),
    permission: 'ask',
    source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin: 'http://files.test', annotations: { destructiveHint: true } },
  };
  return { tool, runs };
}

const CALL = { text: 'Writing it.', toolCalls: [{ name: 'mcp__files__write_file', args: { path: 'a.txt' } }] };
const ECHO = { text: 'Saw: {{lastToolResult}}' };

async function setup(tool: Tool, options: { databaseName?: string; locks?: Locks; peers?: TestTab[] } = {}) {
  const databaseName = options.databaseName ?? uniqueDatabaseName();
  const locks = options.locks ?? memoryLocks();
  const tab = await openTab({ databaseName, locks, tools: [tool], ...(options.peers ? { peers: options.peers } : {}) });
  await tab.send({ type: 'settings.update', script: script([CALL, ECHO, ECHO]) });
  return { tab, databaseName, locks };
}

function callOf(messages: Message[]): ToolCallBlock {
  const block = messages.flatMap((message) => message.blocks).find((candidate): candidate is ToolCallBlock => candidate.type === 'tool_call');
  if (!block) throw new Error('no tool call');
  return block;
}

/** The approval asked about the messages' first tool call. */
function approvalIn(messages: Message[]): ApprovalRequest | undefined {
  return approvalOf(messages.flatMap((message) => message.blocks), callOf(messages));
}

function lastText(messages: Message[]): string {
  return messages.at(-1)!.blocks.map((block: Block) => (block.type === 'text' ? block.text : '')).join('');
}

async function untilApproval(tab: TestTab) {
  const { id: conversationId } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId, text: 'write a.txt' });
  await waitForRunState(tab, conversationId, ['awaiting_input']);
  const { messages } = await tab.send({ type: 'conversation.open', conversationId });
  const message = messages.at(-1)!;
  return { conversationId, messageId: message.id, requestId: callOf([message]).toolCallId };
}

describe('approving a tool call', () => {
  it('stores a pending approval, lists it, runs nothing until Allow, then runs once and the model reads the result', async () => {
    const { tool, runs } = askTool();
    const { tab } = await setup(tool);
    const target = await untilApproval(tab);
    expect(runs).toEqual([]);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(callOf(messages)).toMatchObject({ status: 'pending', source: { serverName: 'files', annotations: { destructiveHint: true } } });
    expect(approvalIn(messages)).toMatchObject({ kind: 'permission', status: 'pending' });
    expect(messages.at(-1)!.pendingRequestId).toBe(target.requestId);
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([expect.objectContaining({ request: expect.objectContaining({ kind: 'permission', payload: { toolName: 'mcp__files__write_file' }, requestId: target.requestId }) })]);

    await tab.send({ type: 'request.resolve', ...target, approved: true });
    await waitForRunState(tab, target.conversationId, ['idle']);
    expect(runs).toEqual([{ path: 'a.txt' }]);
    const after = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(callOf(after.messages)).toMatchObject({ status: 'success', result: 'wrote a.txt' });
    expect(approvalIn(after.messages)).toMatchObject({ status: 'success', resolution: 'approved' });
    expect(lastText(after.messages)).toBe('Saw: wrote a.txt');
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([]);
    await expect(tab.send({ type: 'request.resolve', ...target, approved: false })).rejects.toMatchObject({ code: 'already_resolved', outcome: { resolution: 'approved' } });
    expect(runs).toHaveLength(1);
  });

  it("readies the model's connection while an allowed tool runs, with the conversation's profile, and not for a denied one", async () => {
    const readied: string[] = [];
    // The tool answers only once the connection was readied: that happens while it runs, before the next request.
    const { tool, runs } = askTool(async (args) => {
      while (readied.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      return `wrote ${args.path}`;
    });
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), tools: [tool], readyConnection: (profile) => readied.push(profile.id) });
    await tab.send({ type: 'settings.update', script: script([CALL, ECHO, ECHO]) });
    const target = await untilApproval(tab);
    expect(readied).toEqual([]);
    await tab.send({ type: 'request.resolve', ...target, approved: true });
    await waitForRunState(tab, target.conversationId, ['idle']);
    expect(runs).toEqual([{ path: 'a.txt' }]);
    const profiles = await tab.send({ type: 'profiles.list' });
    expect(profiles).toHaveLength(1);
    expect(readied).toEqual([profiles[0]!.id]);

    const denied = await untilApproval(tab);
    await tab.send({ type: 'request.resolve', ...denied, approved: false });
    await waitForRunState(tab, denied.conversationId, ['idle']);
    expect(readied).toHaveLength(1);
  });

  it('runs with arguments the user edited, checked against the tool schema first, and tells the model', async () => {
    const { tool, runs } = askTool();
    const { tab } = await setup(tool);
    const target = await untilApproval(tab);
    await expect(tab.send({ type: 'request.resolve', ...target, approved: true, params: { path: '' } })).rejects.toMatchObject({ code: 'invalid_answer', message: expect.stringContaining('path') });
    await expect(tab.send({ type: 'request.resolve', ...target, approved: true, params: { path: 'b.txt', extra: 1 } })).rejects.toMatchObject({ code: 'invalid_answer' });
    expect(runs).toEqual([]);
    expect((await tab.host.store.getConversation(target.conversationId))!.runState).toBe('awaiting_input'); // a refused edit wrote nothing

    await tab.send({ type: 'request.resolve', ...target, approved: true, params: { path: 'b.txt' } });
    await waitForRunState(tab, target.conversationId, ['idle']);
    expect(runs).toEqual([{ path: 'b.txt' }]);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(callOf(messages)).toMatchObject({ args: { path: 'b.txt' }, originalArgs: { path: 'a.txt' } });
    expect(approvalIn(messages)).toMatchObject({ resolution: 'edited' });
    expect(lastText(messages)).toBe('Saw: The user edited the arguments before this call ran. It ran with: {"path":"b.txt"}.\n\nwrote b.txt');
  });

  it('Deny with a reason runs nothing and the model reads the reason', async () => {
    const { tool, runs } = askTool();
    const { tab } = await setup(tool);
    const target = await untilApproval(tab);
    await tab.send({ type: 'request.resolve', ...target, approved: false, reason: 'Not that file, use notes.md' });
    await waitForRunState(tab, target.conversationId, ['idle']);
    expect(runs).toEqual([]);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(callOf(messages)).toMatchObject({ status: 'denied' });
    expect(approvalIn(messages)).toMatchObject({ resolution: 'denied', response: { reason: 'Not that file, use notes.md' } });
    expect(lastText(messages)).toContain('the user denied this tool call. The user\'s reason: "Not that file, use notes.md".');
  });

  it('a reply in chat instead of deciding leaves the call unrun and says so to the model', async () => {
    const { tool, runs } = askTool();
    const { tab } = await setup(tool);
    const target = await untilApproval(tab);
    await tab.send({ type: 'message.send', conversationId: target.conversationId, text: 'wait, not now' });
    await waitForRunState(tab, target.conversationId, ['idle']);
    expect(runs).toEqual([]);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(callOf(messages)).toMatchObject({ status: 'denied' });
    expect(approvalIn(messages)).toMatchObject({ resolution: 'chat' });
  });

  it('two tabs pressing Allow at once run the tool once', async () => {
    const { tool, runs } = askTool(async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return `wrote ${args.path}`;
    });
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const peers: TestTab[] = [];
    const first = (await setup(tool, { databaseName, locks, peers })).tab;
    const second = await openTab({ databaseName, locks, tools: [tool], peers: [first] });
    peers.push(second);
    const target = await untilApproval(first);
    const results = await Promise.allSettled([first.send({ type: 'request.resolve', ...target, approved: true }), second.send({ type: 'request.resolve', ...target, approved: true })]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'already_resolved' } });
    await waitForRunState(first, target.conversationId, ['idle']);
    await waitForRunState(second, target.conversationId, ['idle']);
    expect(runs).toHaveLength(1);
  });

  it('a crash between "running" and the result never re-runs the call by itself: the user picks Run again or Skip', async () => {
    let finish: (() => void) | undefined;
    const { tool, runs } = askTool((args) => new Promise((resolve) => (finish = () => resolve(`wrote ${args.path}`))));
    const databaseName = uniqueDatabaseName();
    const { tab } = await setup(tool, { databaseName });
    const target = await untilApproval(tab);
    await tab.send({ type: 'request.resolve', ...target, approved: true });
    await expect.poll(() => runs.length).toBe(1);
    // The tab dies while the tool runs: its lock goes with it (a new lock manager), its stored state stays.
    const reopened = await openTab({ databaseName, locks: memoryLocks(), tools: [tool] });
    const { conversation, messages } = await reopened.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(conversation.runState).toBe('awaiting_input');
    expect(callOf(messages)).toMatchObject({ status: 'interrupted', result: expect.stringContaining('may or may not have run') });
    expect(approvalIn(messages)).toMatchObject({ kind: 'rerun', status: 'pending' });
    expect(runs).toHaveLength(1); // not re-run by itself
    expect(await reopened.send({ type: 'requests.listPending' })).toEqual([expect.objectContaining({ request: expect.objectContaining({ kind: 'rerun' }) })]);

    await reopened.send({ type: 'request.resolve', ...target, approved: false });
    await waitForRunState(reopened, target.conversationId, ['idle']);
    const after = await reopened.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(lastText(after.messages)).toContain('may or may not have run. The user chose not to run it again.');
    expect(runs).toHaveLength(1);
    finish?.();
  });

  it('Allow stores the call as running in its own compare-and-set; a crash right after it leaves "may or may not have run", never a run by itself', async () => {
    const { tool, runs } = askTool();
    const databaseName = uniqueDatabaseName();
    const { tab } = await setup(tool, { databaseName });
    const target = await untilApproval(tab);
    // What an Allow commits before its tool is called, and then the tab dies: one record, the decision and the mark.
    const checks = { checkArgs: () => ({ ok: false as const, error: '' }), checkContent: () => ({ ok: false as const, error: '' }) };
    const { message, run } = await tab.host.store.resolveRequest(target, { approved: true }, checks, { tools: [tool] });
    expect(callOf([message])).toMatchObject({ status: 'running' });
    expect(approvalIn([message])).toMatchObject({ status: 'success', resolution: 'approved' });
    expect(run.begunCall).toBe(target.requestId);
    tab.close();

    const reopened = await openTab({ databaseName, locks: memoryLocks(), tools: [tool] });
    const { conversation, messages } = await reopened.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(conversation.runState).toBe('awaiting_input');
    expect(callOf(messages)).toMatchObject({ status: 'interrupted', result: expect.stringContaining('may or may not have run') });
    expect(approvalIn(messages)).toMatchObject({ kind: 'rerun', status: 'pending' });
    expect(runs).toEqual([]);
    await reopened.send({ type: 'request.resolve', ...target, approved: true });
    await waitForRunState(reopened, target.conversationId, ['idle']);
    expect(runs).toHaveLength(1);
  });

  it('Allow while an earlier call of the message is still queued marks nothing: the loop takes the calls in order', async () => {
    const { tool, runs } = askTool();
    const databaseName = uniqueDatabaseName();
    const { tab } = await setup(tool, { databaseName });
    const target = await untilApproval(tab);
    const stored = await tab.host.store.getMessage(target.messageId);
    // A call before it, queued (as a record from another build or device may hold): it goes first, so Allow leaves its call queued.
    const earlier = { type: 'tool_call' as const, toolCallId: 'earlier', toolName: 'mcp__files__write_file', args: { path: 'b.txt' }, status: 'pending' as const };
    await tab.host.store.write({ messages: [{ ...stored!, blocks: [earlier, ...stored!.blocks] }] });
    const checks = { checkArgs: () => ({ ok: false as const, error: '' }), checkContent: () => ({ ok: false as const, error: '' }) };
    const { message, run } = await tab.host.store.resolveRequest(target, { approved: true }, checks, { tools: [tool] });
    expect(callOf([{ ...message, blocks: message.blocks.filter((block) => block.type !== 'tool_call' || block.toolCallId !== 'earlier') }])).toMatchObject({ status: 'pending' });
    expect(run.begunCall).toBeUndefined();
    expect(runs).toEqual([]);
  });

  it('Run again after a crash runs the call once more, and the model is told', async () => {
    let calls = 0;
    const { tool, runs } = askTool((args) => (calls += 1) === 1 ? new Promise<string>(() => undefined) : Promise.resolve(`wrote ${args.path}`));
    const databaseName = uniqueDatabaseName();
    const { tab } = await setup(tool, { databaseName });
    const target = await untilApproval(tab);
    await tab.send({ type: 'request.resolve', ...target, approved: true });
    await expect.poll(() => runs.length).toBe(1);
    const reopened = await openTab({ databaseName, locks: memoryLocks(), tools: [tool] });
    await reopened.send({ type: 'conversation.open', conversationId: target.conversationId });
    await reopened.send({ type: 'request.resolve', ...target, approved: true });
    await waitForRunState(reopened, target.conversationId, ['idle']);
    expect(runs).toHaveLength(2);
    const { messages } = await reopened.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(lastText(messages)).toBe('Saw: A first attempt was cut off and may or may not have run; the user chose to run it again.\n\nwrote a.txt');
  });

  it('Stop while an approval waits records stopped and runs nothing', async () => {
    const { tool, runs } = askTool();
    const { tab } = await setup(tool);
    const target = await untilApproval(tab);
    await tab.send({ type: 'run.stop', conversationId: target.conversationId });
    const { conversation, messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(conversation.runState).toBe('idle');
    expect(callOf(messages)).toMatchObject({ status: 'stopped' });
    expect(approvalIn(messages)).toMatchObject({ resolution: 'stopped' });
    expect(runs).toEqual([]);
  });
});

describe('elicitation: a server asks the user while its tool runs', () => {
  function elicitingTool() {
    const responses: ElicitationResponse[] = [];
    const { tool, runs } = askTool(async (_args, context) => {
      const response = await context.elicit!({ message: 'Who is the file for?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } });
      responses.push(response);
      return `response ${JSON.stringify(response)}`;
    });
    return { tool: { ...tool, permission: 'allow' as const }, runs, responses };
  }

  async function untilElicitation(tab: TestTab) {
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'write' });
    await expect.poll(async () => (await tab.host.store.getConversation(conversationId))!.runState).toBe('awaiting_input');
    const { messages } = await tab.send({ type: 'conversation.open', conversationId });
    const block = messages.at(-1)!.blocks.find((candidate) => candidate.type === 'request' && candidate.kind === 'elicitation');
    if (block?.type !== 'request') throw new Error('no elicitation');
    return { conversationId, messageId: messages.at(-1)!.id, requestId: block.requestId, block };
  }

  it('stores the request (listed, awaiting input), and Submit hands the content to the running tool', async () => {
    const { tool, responses } = elicitingTool();
    const { tab } = await setup(tool);
    const target = await untilElicitation(tab);
    expect(target.block).toMatchObject({ status: 'pending', payload: { serverName: 'files', message: 'Who is the file for?' } });
    expect(await tab.send({ type: 'requests.listPending' })).toEqual([expect.objectContaining({ request: expect.objectContaining({ kind: 'elicitation', payload: expect.objectContaining({ message: 'Who is the file for?' }) }) })]);
    await expect(tab.send({ type: 'message.send', conversationId: target.conversationId, text: 'hm' })).rejects.toMatchObject({ code: 'busy' });
    await tab.send({ type: 'request.resolve', ...target, approved: true, params: { name: 'Ada' } });
    await waitForRunState(tab, target.conversationId, ['idle']);
    expect(responses).toEqual([{ action: 'accept', content: { name: 'Ada' } }]);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(messages.flatMap((message) => message.blocks).find((block) => block.type === 'request' && block.kind === 'elicitation')).toMatchObject({ status: 'success', resolution: 'accepted', response: { content: { name: 'Ada' } } });
  });

  it('Decline and Cancel reach the tool as such', async () => {
    for (const [resolution, expected] of [[{ approved: false }, { action: 'decline' }], [{ approved: false, cancel: true }, { action: 'cancel' }]] as const) {
      const { tool, responses } = elicitingTool();
      const { tab } = await setup(tool);
      const target = await untilElicitation(tab);
      await tab.send({ type: 'request.resolve', ...target, ...resolution });
      await waitForRunState(tab, target.conversationId, ['idle']);
      expect(responses).toEqual([expected]);
    }
  });

  it('an answer from another tab reaches the tool running in this one', async () => {
    const { tool, responses } = elicitingTool();
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const peers: TestTab[] = [];
    const first = (await setup(tool, { databaseName, locks, peers })).tab;
    const second = await openTab({ databaseName, locks, tools: [tool], peers: [first] });
    peers.push(second);
    const target = await untilElicitation(first);
    await second.send({ type: 'request.resolve', ...target, approved: true, params: { name: 'Grace' } });
    await waitForRunState(first, target.conversationId, ['idle']);
    expect(responses).toEqual([{ action: 'accept', content: { name: 'Grace' } }]);
  });

  it('after the tab that asked died, the request is not left answerable: it is closed and the call may be run again', async () => {
    const { tool } = elicitingTool();
    const databaseName = uniqueDatabaseName();
    const { tab } = await setup(tool, { databaseName });
    const target = await untilElicitation(tab);
    const reopened = await openTab({ databaseName, locks: memoryLocks(), tools: [tool] });
    const { conversation, messages } = await reopened.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(conversation.runState).toBe('awaiting_input');
    const blocks = messages.flatMap((message) => message.blocks);
    expect(blocks.find((block) => block.type === 'request' && block.kind === 'elicitation')).toMatchObject({ status: 'denied', resolution: 'interrupted' });
    expect(callOf(messages)).toMatchObject({ status: 'interrupted' });
    expect(approvalIn(messages)).toMatchObject({ kind: 'rerun', status: 'pending' });
    await expect(reopened.send({ type: 'request.resolve', ...target, approved: true, params: { name: 'Ada' } })).rejects.toMatchObject({ code: 'already_resolved' });
  });
});

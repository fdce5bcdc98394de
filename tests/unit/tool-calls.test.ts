import { describe, expect, it } from 'vitest';
import * as z from '../../src/schema/zod-mini';
import { AFTER_QUESTION_TEXT, beginCall, processToolCalls, queuedCall, type CallPorts, type ReceivedToolCall } from '../../src/core/tools/tool-calls';
import { bindingFor } from '../../src/core/requests/approval-binding';
import { BUILT_IN_TOOLS, QUESTION_TOOL, zodTool } from '../../src/core/tools/tools';
import type { Tool, ToolOutput } from '../../src/core/tools/tool';
import type { ToolPermission } from '../../src/schema/mcp';
import { STOPPED_BEFORE_TOOL_TEXT, STOPPED_WHILE_RUNNING_TEXT } from '../../src/core/tools/tool-outcomes';
import type { Block, ToolCallBlock } from '../../src/schema/messages/blocks';
import type { Message, RunState } from '../../src/schema/records';

/** A tool that records every execution, so a test can tell "refused" from "ran and failed". */
function spyTool(name: string, behaviour: (input: { value?: string }, signal: AbortSignal) => Promise<string> = async (input) => `ran ${input.value ?? ''}`, permission: ToolPermission = 'allow') {
  const executions: unknown[] = [];
  const tool: Tool = {
    ...zodTool({
      name,
      description: `Spy tool ${name}`,
      input: z.object({ value: z.optional(z.string()) }),
      async execute(input, context): Promise<ToolOutput> {
        executions.push(input);
        return { text: await behaviour(input as { value?: string }, context.signal) };
      },
    }),
    permission,
  };
  return { tool, executions };
}

let nextId = 0;
function call(toolName: string, input: unknown): ReceivedToolCall {
  nextId += 1;
  return { toolCallId: `call-${nextId}`, toolName, input };
}

const validQuestion = {
  questions: [{ header: 'Budget', question: 'How much do you want to spend?', options: ['Low', 'High'] }],
};

/** A message holding `calls` queued, as the loop stores a step before processing it; and what each save wrote. */
function harness(calls: ReceivedToolCall[], tools: readonly Tool[], options: { signal?: AbortSignal; begun?: string } = {}) {
  const message: Message = { id: 'm1', conversationId: 'c1', seq: 1, role: 'assistant', blocks: calls.map(queuedCall), status: 'complete', createdAt: 0, updatedAt: 0 };
  const saves: Array<{ runState: RunState; blocks: Block[] }> = [];
  const ports: CallPorts = {
    tools: [QUESTION_TOOL, ...tools],
    now: () => 1_700_000_000_000,
    newId: () => `id-${(nextId += 1)}`,
    async save(saved, runState) {
      saves.push({ runState, blocks: structuredClone(saved.blocks) });
      return true;
    },
  };
  const run = () => processToolCalls(message, ports, options.signal ?? new AbortController().signal, options.begun);
  return { message, saves, run };
}

function toolBlock(block: Block | undefined): ToolCallBlock {
  if (block?.type !== 'tool_call') throw new Error(`expected a tool_call block, got ${JSON.stringify(block)}`);
  return block;
}

describe('processToolCalls: the question must be the only or the last call', () => {
  it('runs earlier calls in order, then pauses on a valid question', async () => {
    const order: string[] = [];
    const first = spyTool('first', async () => (order.push('first'), 'first done'));
    const second = spyTool('second', async () => (order.push('second'), 'second done'));
    const calls = [call('first', { value: 'a' }), call('second', {}), call('question', validQuestion)];
    const { message, run } = harness(calls, [first.tool, second.tool]);
    expect(await run()).toEqual({ kind: 'paused' });
    expect(order).toEqual(['first', 'second']);
    expect(message.blocks[0]).toEqual({ type: 'tool_call', toolCallId: calls[0]!.toolCallId, toolName: 'first', args: { value: 'a' }, status: 'success', result: 'first done' });
    expect(message.blocks[2]).toMatchObject({ type: 'request', kind: 'question', requestId: calls[2]!.toolCallId, status: 'pending' });
    expect(message.pendingRequestId).toBe(calls[2]!.toolCallId);
  });

  it('refuses every call after a valid question without running it, a second question too', async () => {
    const spy = spyTool('spy');
    const calls = [call('question', validQuestion), call('spy', {}), call('question', validQuestion)];
    const { message, run } = harness(calls, [spy.tool]);
    expect(await run()).toEqual({ kind: 'paused' });
    expect(spy.executions).toEqual([]);
    expect(toolBlock(message.blocks[1])).toMatchObject({ status: 'error', result: AFTER_QUESTION_TEXT });
    expect(toolBlock(message.blocks[2])).toMatchObject({ status: 'error', result: AFTER_QUESTION_TEXT });
  });

  it('does not pause on an invalid question; later calls still run, and the invalid one is counted', async () => {
    const spy = spyTool('spy');
    const { message, run } = harness([call('question', { questions: [] }), call('spy', { value: 'x' })], [spy.tool]);
    expect(await run()).toEqual({ kind: 'done', invalid: 1 });
    expect(toolBlock(message.blocks[0]).result).toMatch(/Invalid input for the question tool: questions/);
    expect(toolBlock(message.blocks[1])).toMatchObject({ status: 'success', result: 'ran x' });
  });
});

describe('processToolCalls: ordinary tools', () => {
  it('answers an unknown tool, and a malformed mcp__ name, with an error naming the available tools', async () => {
    const spy = spyTool('spy');
    const { message, run } = harness([call('search_web', {}), call('mcp__nope__thing', {})], [spy.tool]);
    await run();
    expect(toolBlock(message.blocks[0])).toMatchObject({ status: 'error', result: 'Unknown tool "search_web". Available tools: question, spy.' });
    expect(toolBlock(message.blocks[1]).result).toMatch(/No connected MCP server offers a tool of that name/);
  });

  it('answers input that fails the schema, or is not an object, with an error, without running it', async () => {
    const spy = spyTool('spy');
    const { message, run } = harness([call('spy', { value: 42 }), call('spy', '{"value": "unterminated')], [spy.tool]);
    await run();
    expect(spy.executions).toEqual([]);
    expect(toolBlock(message.blocks[0]).result).toMatch(/^Invalid input for spy: value: .*Please rewrite the input so it satisfies the expected schema\.$/);
    expect(toolBlock(message.blocks[1]).status).toBe('error');
  });

  it('marks a call running in storage before the tool is called, and finished after', async () => {
    let savedBeforeRun: Block[] | undefined;
    const { saves, run } = harness([], []);
    const spy = spyTool('spy', async () => {
      savedBeforeRun = saves.at(-1)?.blocks;
      return 'done';
    });
    const { message, saves: spySaves, run: runSpy } = harness([call('spy', {})], [spy.tool]);
    void saves;
    void run;
    await runSpy();
    expect(savedBeforeRun).toBeUndefined(); // the other harness saw nothing
    expect(spySaves.map((save) => [save.runState, toolBlock(save.blocks[0]).status])).toEqual([
      ['running', 'running'],
      ['running', 'success'],
    ]);
    expect(toolBlock(message.blocks[0]).result).toBe('done');
  });

  it('turns a throwing tool into an error result and goes on with the next call', async () => {
    const failing = spyTool('failing', async () => {
      throw new Error('disk on fire');
    });
    const after = spyTool('after');
    const { message, run } = harness([call('failing', {}), call('after', {})], [failing.tool, after.tool]);
    expect(await run()).toEqual({ kind: 'done', invalid: 0 });
    expect(toolBlock(message.blocks[0])).toMatchObject({ status: 'error', result: 'The tool failed: disk on fire' });
    expect(after.executions).toHaveLength(1);
  });

  it('reads the clock through the context, never the wall clock', async () => {
    const { message, run } = harness([call('get_current_time', {})], BUILT_IN_TOOLS.filter((tool) => tool.name !== 'question'));
    await run();
    expect(toolBlock(message.blocks[0]).result).toBe(new Date(1_700_000_000_000).toISOString());
  });
});

describe('processToolCalls: permissions and Stop', () => {
  it('asks before an "Ask" tool runs: a durable pending approval, nothing executed, later calls left queued', async () => {
    const asked = spyTool('asked', undefined, 'ask');
    const later = spyTool('later');
    const { message, saves, run } = harness([call('asked', { value: 'v' }), call('later', {})], [asked.tool, later.tool]);
    expect(await run()).toEqual({ kind: 'paused' });
    expect(asked.executions).toEqual([]);
    expect(later.executions).toEqual([]);
    expect(saves.at(-1)!.runState).toBe('awaiting_input');
    expect(toolBlock(message.blocks[0])).toMatchObject({ status: 'pending' });
    expect(message.blocks[1]).toMatchObject({ type: 'request', kind: 'permission', status: 'pending', requestId: toolBlock(message.blocks[0]).toolCallId });
    expect(toolBlock(message.blocks[2]).status).toBe('pending');
    expect(message.pendingRequestId).toBe(toolBlock(message.blocks[0]).toolCallId);
  });

  it('runs an approved call with the arguments the user left, and says when they were edited', async () => {
    const asked = spyTool('asked', async (input) => `ran ${input.value}`, 'ask');
    const { message, run } = harness([call('asked', { value: 'model' })], [asked.tool]);
    const edited = { ...toolBlock(message.blocks[0]), args: { value: 'user' } };
    message.blocks[0] = { ...edited, originalArgs: { value: 'model' }, binding: bindingFor(edited) };
    message.blocks.splice(1, 0, { type: 'request', kind: 'permission', requestId: edited.toolCallId, toolCallId: edited.toolCallId, status: 'success', resolution: 'edited', payload: { toolName: edited.toolName } });
    expect(await run()).toEqual({ kind: 'done', invalid: 0 });
    expect(asked.executions).toEqual([{ value: 'user' }]);
    expect(toolBlock(message.blocks[0]).result).toBe('The user edited the arguments before this call ran. It ran with: {"value":"user"}.\n\nran user');
  });

  it('does not run a "Never" tool: the call is refused as the user\'s choice, in words, with where the tool came from', async () => {
    const source = { kind: 'mcp' as const, serverId: 's1', serverName: 'files', toolName: 'delete', origin: 'http://files.test' };
    const never = spyTool('mcp__files__delete', undefined, 'never');
    const { message, saves, run } = harness([call('mcp__files__delete', {})], [{ ...never.tool, source }]);
    expect(await run()).toEqual({ kind: 'done', invalid: 0 });
    expect(never.executions).toEqual([]);
    expect(toolBlock(message.blocks[0])).toMatchObject({
      status: 'denied',
      source,
      result: 'Not run: the user set mcp__files__delete to "Never", so it is not available. Do not call it again unless the user changes that.',
    });
    expect(saves.at(-1)?.blocks[0]).toMatchObject({ status: 'denied' });
  });

  it('Stop while a tool runs cancels it (the signal reaches the tool) and records stopped; queued calls are not run', async () => {
    const controller = new AbortController();
    const slow = spyTool('slow', (_input, signal) => new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason));
      controller.abort(new DOMException('Stopped', 'AbortError'));
    }));
    const after = spyTool('after');
    const { message, saves, run } = harness([call('slow', {}), call('after', {})], [slow.tool, after.tool], { signal: controller.signal });
    expect(await run()).toEqual({ kind: 'stopped' });
    expect(toolBlock(message.blocks[0])).toMatchObject({ status: 'stopped', result: STOPPED_WHILE_RUNNING_TEXT });
    expect(toolBlock(message.blocks[1])).toMatchObject({ status: 'stopped', result: STOPPED_BEFORE_TOOL_TEXT });
    expect(after.executions).toEqual([]);
    expect(saves.at(-1)!.runState).toBe('idle');
  });
});

describe('processToolCalls: a call its Allow marked running (begun)', () => {
  /** `calls` queued, the first approved by the user (its binding and resolved approval), as an Allow stores it. */
  function approved(calls: ReceivedToolCall[], tools: readonly Tool[], options: { signal?: AbortSignal } = {}) {
    const first = calls[0]!.toolCallId;
    const made = harness(calls, tools, { ...options, begun: first });
    const block = toolBlock(made.message.blocks[0]);
    made.message.blocks[0] = { ...block, binding: bindingFor({ ...block, source: tools.find((tool) => tool.name === block.toolName)?.source }) };
    made.message.blocks.splice(1, 0, { type: 'request', kind: 'permission', requestId: first, toolCallId: first, status: 'success', resolution: 'approved', payload: { toolName: block.toolName } });
    return made;
  }

  it('beginCall marks the approved call running when it runs next, and nothing when another call comes first', () => {
    const asked = spyTool('asked', undefined, 'ask');
    const { message } = approved([call('asked', { value: 'x' })], [asked.tool]);
    const begun = beginCall(message, toolBlock(message.blocks[0]).toolCallId, [asked.tool], 0);
    expect(toolBlock(begun?.blocks[0])).toMatchObject({ status: 'running' });
    // The tool gone (its server disconnected): not marked, the loop answers it.
    expect(beginCall(message, toolBlock(message.blocks[0]).toolCallId, [], 0)).toBeUndefined();
    const queuedFirst = { ...message, blocks: [queuedCall(call('asked', {})), ...message.blocks] };
    expect(beginCall(queuedFirst, toolBlock(message.blocks[0]).toolCallId, [asked.tool], 0)).toBeUndefined();
  });

  it('calls the tool without storing the mark again, then stores its result', async () => {
    const asked = spyTool('asked', undefined, 'ask');
    const made = approved([call('asked', { value: 'x' })], [asked.tool]);
    const id = toolBlock(made.message.blocks[0]).toolCallId;
    Object.assign(made.message, beginCall(made.message, id, [asked.tool], 0));
    expect(await made.run()).toEqual({ kind: 'done', invalid: 0 });
    expect(asked.executions).toEqual([{ value: 'x' }]);
    expect(made.saves.map((save) => toolBlock(save.blocks[0]).status)).toEqual(['success']);
  });

  it('Stop before the tool was called: stopped before it ran, never called', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('Stopped', 'AbortError'));
    const asked = spyTool('asked', undefined, 'ask');
    const made = approved([call('asked', {})], [asked.tool], { signal: controller.signal });
    const id = toolBlock(made.message.blocks[0]).toolCallId;
    Object.assign(made.message, beginCall(made.message, id, [asked.tool], 0));
    expect(await made.run()).toEqual({ kind: 'stopped' });
    expect(asked.executions).toEqual([]);
    expect(toolBlock(made.message.blocks[0])).toMatchObject({ status: 'stopped', result: STOPPED_BEFORE_TOOL_TEXT });
  });

  it('its tool gone since the mark: the call is answered in its place, never called', async () => {
    const asked = spyTool('asked', undefined, 'ask');
    const made = approved([call('asked', {})], []);
    const id = toolBlock(made.message.blocks[0]).toolCallId;
    Object.assign(made.message, beginCall(made.message, id, [asked.tool], 0));
    expect(await made.run()).toEqual({ kind: 'done', invalid: 0 });
    expect(asked.executions).toEqual([]);
    expect(toolBlock(made.saves.at(-1)!.blocks[0])).toMatchObject({ status: 'error', result: expect.stringContaining('asked') });
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AFTER_QUESTION_TEXT, runToolCalls, type ReceivedToolCall } from '../../src/core/tool-calls';
import type { ExecutableTool } from '../../src/core/tools';
import type { Block, ToolCallBlock } from '../../src/schema/blocks';

/** A tool that records every execution, so a test can tell "refused" from "ran and failed". */
function spyTool(name: string, behaviour: (input: { value?: string }) => Promise<string> = async (input) => `ran ${input.value ?? ''}`) {
  const executions: unknown[] = [];
  const tool: ExecutableTool = {
    name,
    description: `Spy tool ${name}`,
    input: z.object({ value: z.string().optional() }),
    async execute(input) {
      executions.push(input);
      return behaviour(input as { value?: string });
    },
  };
  return { tool, executions };
}

const context = () => ({ now: () => 1_700_000_000_000, signal: new AbortController().signal });

let nextId = 0;
function call(toolName: string, input: unknown): ReceivedToolCall {
  nextId += 1;
  return { toolCallId: `call-${nextId}`, toolName, input };
}

const validQuestion = {
  questions: [{ header: 'Budget', question: 'How much do you want to spend?', options: ['Low', 'High'] }],
};

function toolBlock(block: Block | undefined): ToolCallBlock {
  if (block?.type !== 'tool_call') throw new Error(`expected a tool_call block, got ${JSON.stringify(block)}`);
  return block;
}

describe('runToolCalls: the question must be the only or the last call', () => {
  it('runs earlier calls in order, then pauses on a valid question', async () => {
    const order: string[] = [];
    const first = spyTool('first', async () => {
      order.push('first');
      return 'first done';
    });
    const second = spyTool('second', async () => {
      order.push('second');
      return 'second done';
    });
    const calls = [call('first', { value: 'a' }), call('second', {}), call('question', validQuestion)];
    const outcome = await runToolCalls(calls, [first.tool, second.tool], context());

    expect(order).toEqual(['first', 'second']);
    expect(outcome.blocks).toHaveLength(3);
    expect(outcome.blocks[0]).toEqual({
      type: 'tool_call',
      toolCallId: calls[0]!.toolCallId,
      toolName: 'first',
      args: { value: 'a' },
      status: 'success',
      result: 'first done',
    });
    expect(toolBlock(outcome.blocks[1])).toMatchObject({ status: 'success', result: 'second done' });
    expect(outcome.question).toEqual({
      type: 'question_request',
      toolCallId: calls[2]!.toolCallId,
      questions: [
        {
          header: 'Budget',
          question: 'How much do you want to spend?',
          options: [{ label: 'Low' }, { label: 'High' }],
          multiple: false,
          custom: true,
        },
      ],
      status: 'pending',
    });
    expect(outcome.blocks[2]).toBe(outcome.question);
    expect(outcome.invalidQuestions).toBe(0);
  });

  it('pauses on a question that is the only call', async () => {
    const outcome = await runToolCalls([call('question', validQuestion)], [], context());
    expect(outcome.question?.status).toBe('pending');
    expect(outcome.blocks).toEqual([outcome.question]);
  });

  it('refuses a call after a valid question without running it', async () => {
    const spy = spyTool('spy');
    const calls = [call('question', validQuestion), call('spy', { value: 'late' })];
    const outcome = await runToolCalls(calls, [spy.tool], context());

    expect(spy.executions).toEqual([]);
    expect(outcome.question?.toolCallId).toBe(calls[0]!.toolCallId);
    expect(outcome.blocks[1]).toEqual({
      type: 'tool_call',
      toolCallId: calls[1]!.toolCallId,
      toolName: 'spy',
      args: { value: 'late' },
      status: 'error',
      result: AFTER_QUESTION_TEXT,
    });
  });

  it('refuses a second question after a valid one; the first one is the pause', async () => {
    const second = { questions: [{ header: 'Size', question: 'Which size?', options: ['S', 'M'] }] };
    const calls = [call('question', validQuestion), call('question', second), call('question', { questions: [] })];
    const outcome = await runToolCalls(calls, [], context());

    expect(outcome.question?.toolCallId).toBe(calls[0]!.toolCallId);
    expect(outcome.question?.questions[0]?.header).toBe('Budget');
    expect(outcome.blocks.filter((block) => block.type === 'question_request')).toHaveLength(1);
    for (const index of [1, 2]) {
      expect(toolBlock(outcome.blocks[index])).toMatchObject({
        toolCallId: calls[index]!.toolCallId,
        toolName: 'question',
        status: 'error',
        result: AFTER_QUESTION_TEXT,
      });
    }
    expect(outcome.invalidQuestions).toBe(0);
  });

  it('does not pause on an invalid question; later calls still run', async () => {
    const spy = spyTool('spy');
    const calls = [call('question', { questions: [] }), call('spy', { value: 'after' })];
    const outcome = await runToolCalls(calls, [spy.tool], context());

    expect(outcome.question).toBeUndefined();
    expect(outcome.invalidQuestions).toBe(1);
    const refused = toolBlock(outcome.blocks[0]);
    expect(refused).toMatchObject({ toolName: 'question', status: 'error', args: { questions: [] } });
    expect(refused.result).toMatch(/^Invalid input for the question tool: questions: /);
    expect(spy.executions).toEqual([{ value: 'after' }]);
    expect(toolBlock(outcome.blocks[1])).toMatchObject({ status: 'success', result: 'ran after' });
  });

  it('counts every invalid question and still pauses on a valid one after them', async () => {
    const calls = [call('question', 'not json'), call('question', { questions: 'x' }), call('question', validQuestion)];
    const outcome = await runToolCalls(calls, [], context());
    expect(outcome.invalidQuestions).toBe(2);
    expect(outcome.question?.toolCallId).toBe(calls[2]!.toolCallId);
    expect(outcome.blocks.map((block) => block.type)).toEqual(['tool_call', 'tool_call', 'question_request']);
  });
});

describe('runToolCalls: ordinary tools', () => {
  it('answers an unknown tool with an error naming the available tools', async () => {
    const spy = spyTool('lookup');
    const outcome = await runToolCalls([call('search_web', {})], [spy.tool], context());
    const block = toolBlock(outcome.blocks[0]);
    expect(block.status).toBe('error');
    expect(block.result).toBe('Unknown tool "search_web". Available tools: question, lookup.');
    expect(spy.executions).toEqual([]);
  });

  it('answers input that fails the tool schema with an error, without running it', async () => {
    const spy = spyTool('spy');
    const outcome = await runToolCalls([call('spy', { value: 42 })], [spy.tool], context());
    const block = toolBlock(outcome.blocks[0]);
    expect(block.status).toBe('error');
    expect(block.result).toContain('Invalid input for spy: value:');
    expect(block.result).toContain('Please rewrite the input');
    expect(spy.executions).toEqual([]);
  });

  it('answers input that is not an object (raw text the model sent) with an error', async () => {
    const spy = spyTool('spy');
    const outcome = await runToolCalls([call('spy', '{"value": "unterminated')], [spy.tool], context());
    expect(toolBlock(outcome.blocks[0])).toMatchObject({ status: 'error' });
    expect(toolBlock(outcome.blocks[0]).result).toContain('Invalid input for spy: input:');
    expect(spy.executions).toEqual([]);
  });

  it('treats missing input as an empty object', async () => {
    const spy = spyTool('spy');
    const outcome = await runToolCalls([call('spy', undefined)], [spy.tool], context());
    expect(toolBlock(outcome.blocks[0])).toMatchObject({ status: 'success', result: 'ran ' });
    expect(spy.executions).toEqual([{}]);
  });

  it('turns a throwing tool into an error result and goes on with the next call', async () => {
    const failing = spyTool('failing', async () => {
      throw new Error('disk on fire');
    });
    const after = spyTool('after');
    const outcome = await runToolCalls([call('failing', {}), call('after', {})], [failing.tool, after.tool], context());
    expect(toolBlock(outcome.blocks[0])).toMatchObject({ status: 'error', result: 'The tool failed: disk on fire' });
    expect(failing.executions).toHaveLength(1);
    expect(toolBlock(outcome.blocks[1])).toMatchObject({ status: 'success' });
  });

  it('reports a thrown non-Error value as text', async () => {
    const failing = spyTool('failing', async () => {
      throw 'plain string';
    });
    const outcome = await runToolCalls([call('failing', {})], [failing.tool], context());
    expect(toolBlock(outcome.blocks[0]).result).toBe('The tool failed: plain string');
  });

  it('passes the parsed input and the context to the tool', async () => {
    let seen: { now: number; aborted: boolean } | undefined;
    const tool: ExecutableTool = {
      name: 'clock',
      description: 'Reads the context',
      input: z.object({ zone: z.string().default('UTC') }),
      async execute(input, toolContext) {
        seen = { now: toolContext.now(), aborted: toolContext.signal.aborted };
        return JSON.stringify(input);
      },
    };
    const outcome = await runToolCalls([call('clock', {})], [tool], context());
    expect(toolBlock(outcome.blocks[0]).result).toBe('{"zone":"UTC"}');
    expect(seen).toEqual({ now: 1_700_000_000_000, aborted: false });
  });
});

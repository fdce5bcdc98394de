import { describe, expect, it } from 'vitest';
import type { ModelPart, ModelRequest } from '../../src/core/run/model';
import type { Block } from '../../src/schema/messages/blocks';
import { QuestionToolInput } from '../../src/schema/forms/question';
import type { Conversation, Message } from '../../src/schema/records';
import { parseScript, type ParsedScript } from '../../src/schema/script';
import { builtInDemo, DEMO_SCRIPT, demoScriptIn } from '../../src/worker/providers/demo-script';
import { SCRIPT_ENDED_TEXT, createScriptedModel } from '../../src/worker/providers/scripted';
import { promptedModel } from '../../src/core/prompt/prompt';

/** The scripted provider behind the prompt core builds, as the registry gives it. */
const scriptedModel = (...args: Parameters<typeof createScriptedModel>) => promptedModel(createScriptedModel(...args));

const instantSleep = async (_ms: number, signal: AbortSignal) => signal.throwIfAborted();

function conversation(completedSteps: number): Conversation {
  return { id: 'c1', title: 'Test', createdAt: 1, updatedAt: 1, runState: 'running', completedSteps };
}

let nextSeq = 0;
function message(role: Message['role'], blocks: Block[]): Message {
  const seq = nextSeq++;
  return { id: `m${seq}`, conversationId: 'c1', seq, role, blocks, status: 'complete', createdAt: seq, updatedAt: seq };
}

function request(overrides: Partial<ModelRequest> & { completedSteps?: number } = {}): ModelRequest {
  const { completedSteps = 0, ...rest } = overrides;
  return {
    conversation: conversation(completedSteps),
    history: [message('user', [{ type: 'text', text: 'Plan my weekend' }])],
    tools: [],
    signal: new AbortController().signal,
    ...rest,
  };
}

function script(text: string): ParsedScript {
  const result = parseScript(text);
  if (!result.ok) throw new Error(result.error);
  return result.script;
}

async function collect(stream: AsyncIterable<ModelPart>): Promise<ModelPart[]> {
  const parts: ModelPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function textOf(parts: ModelPart[], type: 'text-delta' | 'reasoning-delta' = 'text-delta'): string {
  return parts.map((part) => (part.type === type ? part.text : '')).join('');
}

describe('scripted model', () => {
  it('replies to call n with step n', async () => {
    const model = scriptedModel(script('[{"text":"zero"},{"text":"one"},{"text":"two"}]'), { sleep: instantSleep });
    expect(textOf(await collect(model.streamStep(request({ completedSteps: 0 }))))).toBe('zero');
    expect(textOf(await collect(model.streamStep(request({ completedSteps: 2 }))))).toBe('two');
    expect(textOf(await collect(model.streamStep(request({ completedSteps: 1 }))))).toBe('one');
  });

  it('says the script has ended past the last step, pointing at Settings → Script', async () => {
    const model = scriptedModel(script('[{"text":"only"}]'), { sleep: instantSleep });
    const parts = await collect(model.streamStep(request({ completedSteps: 1 })));
    expect(textOf(parts)).toBe(SCRIPT_ENDED_TEXT);
    expect(SCRIPT_ENDED_TEXT).toContain('Settings → Script');
    expect(parts.at(-1)).toEqual({ type: 'finish' });
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
  });

  it('fills in the last user message and the last tool result', async () => {
    const model = scriptedModel(script('[{"text":"You said {{lastUserMessage}}; got {{ lastToolResult }}; keep {{other}}"}]'), {
      sleep: instantSleep,
    });
    const history = [
      message('user', [{ type: 'text', text: 'first' }]),
      message('assistant', [
        { type: 'tool_call', toolCallId: 't1', toolName: 'clock', args: {}, status: 'success', result: 'old result' },
        { type: 'request', kind: 'question', requestId: 't2', toolCallId: 't2', payload: { questions: [] }, status: 'success', response: { toolResult: 'answered $& "Q"="A"' } },
        { type: 'tool_call', toolCallId: 't3', toolName: 'clock', args: {}, status: 'pending' },
      ]),
      message('user', [{ type: 'text', text: 'second $1' }]),
    ];
    const parts = await collect(model.streamStep(request({ history })));
    expect(textOf(parts)).toBe('You said second $1; got answered $& "Q"="A"; keep {{other}}');
  });

  it('fills in the reply the last user message answered, and nothing before a first reply', async () => {
    const model = scriptedModel(script('[{"text":"Before [{{lastAssistantMessage}}] you said {{lastUserMessage}}"}]'), { sleep: instantSleep });
    const history = [
      message('user', [{ type: 'text', text: 'first' }]),
      message('assistant', [{ type: 'text', text: 'An older reply.' }]),
      message('user', [{ type: 'text', text: 'second' }]),
      message('assistant', [
        { type: 'text', text: 'Version ' },
        { type: 'tool_call', toolCallId: 't1', toolName: 'clock', args: {}, status: 'success', result: 'noon' },
      ]),
      message('assistant', [{ type: 'text', text: 'two $&.' }]),
      message('user', [{ type: 'text', text: 'third' }]),
    ];
    expect(textOf(await collect(model.streamStep(request({ history }))))).toBe('Before [two $&.] you said third');
    expect(textOf(await collect(model.streamStep(request())))).toBe('Before [] you said Plan my weekend');
  });

  it('takes a later tool_call result over an earlier question result, and ignores a pending question', async () => {
    const model = scriptedModel(script('[{"text":"{{lastToolResult}}"}]'), { sleep: instantSleep });
    const history = [
      message('user', [{ type: 'text', text: 'hi' }]),
      message('assistant', [
        { type: 'request', kind: 'question', requestId: 'q1', toolCallId: 'q1', payload: { questions: [] }, status: 'denied', resolution: 'dismissed', response: { toolResult: 'declined' } },
      ]),
      message('assistant', [
        { type: 'tool_call', toolCallId: 't1', toolName: 'clock', args: {}, status: 'error', result: 'clock broke' },
        { type: 'request', kind: 'question', requestId: 'q2', toolCallId: 'q2', payload: { questions: [] }, status: 'pending' },
      ]),
    ];
    expect(textOf(await collect(model.streamStep(request({ history }))))).toBe('clock broke');
  });

  it('yields tool calls after the text with deterministic ids, then finish with usage', async () => {
    const model = scriptedModel(
      script(
        JSON.stringify([
          { text: 'a' },
          {
            reasoning: 'think',
            text: 'Let me check.',
            toolCalls: [{ name: 'clock', args: { zone: 'UTC' } }, { name: 'question' }],
            usage: { inputTokens: 10, outputTokens: 3 },
          },
        ]),
      ),
      { sleep: instantSleep },
    );
    const parts = await collect(model.streamStep(request({ completedSteps: 1 })));
    const types = parts.map((part) => part.type);
    expect(types.lastIndexOf('reasoning-delta')).toBeLessThan(types.indexOf('text-delta'));
    expect(textOf(parts, 'reasoning-delta')).toBe('think');
    expect(parts.slice(-3)).toEqual([
      { type: 'tool-call', toolCallId: 'call_1_0', toolName: 'clock', input: { zone: 'UTC' } },
      { type: 'tool-call', toolCallId: 'call_1_1', toolName: 'question', input: {} },
      { type: 'finish', usage: { inputTokens: 10, outputTokens: 3 } },
    ]);
  });

  it('hands out a copy of the tool input, so a caller cannot change the script', async () => {
    const model = scriptedModel(script('[{"toolCalls":[{"name":"t","args":{"list":[1]}}]}]'), { sleep: instantSleep });
    const first = await collect(model.streamStep(request()));
    const call = first[0];
    if (call?.type !== 'tool-call') throw new Error('expected a tool call');
    (call.input as { list: number[] }).list.push(2);
    const second = await collect(model.streamStep(request()));
    expect(second[0]).toMatchObject({ input: { list: [1] } });
  });

  it('streams in chunks of chunkSize code points, sleeping chunkDelayMs between them', async () => {
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
    };
    const model = scriptedModel(script('{"steps":[{"text":"abcdefg😀h"}],"chunkSize":3,"chunkDelayMs":40}'), { sleep });
    const parts = await collect(model.streamStep(request()));
    expect(parts.filter((part) => part.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'abc' },
      { type: 'text-delta', text: 'def' },
      { type: 'text-delta', text: 'g😀h' },
    ]);
    expect(delays).toEqual([40, 40]);
  });

  it('uses a pace of 4 characters every 25 ms by default', async () => {
    const parsed = script('[{"text":"123456789"}]');
    expect(parsed).toMatchObject({ chunkSize: 4, chunkDelayMs: 25 });
    const delays: number[] = [];
    const model = scriptedModel(parsed, { sleep: async (ms) => void delays.push(ms) });
    const chunks = (await collect(model.streamStep(request()))).filter((part) => part.type === 'text-delta');
    expect(chunks.map((part) => (part.type === 'text-delta' ? part.text : ''))).toEqual(['1234', '5678', '9']);
    expect(delays).toEqual([25, 25]);
  });

  it('stops promptly with the abort reason when the request is aborted mid-stream', async () => {
    const long = 'x'.repeat(400);
    const model = scriptedModel(script(JSON.stringify({ steps: [{ text: long, toolCalls: [{ name: 't' }] }], chunkSize: 1, chunkDelayMs: 1000 })));
    const controller = new AbortController();
    const received: ModelPart[] = [];
    const started = Date.now();
    const run = (async () => {
      for await (const part of model.streamStep(request({ signal: controller.signal }))) {
        received.push(part);
        if (received.length === 1) setTimeout(() => controller.abort(), 10);
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // The reply would take 400 s at this pace; the abort lands during the first 1 s sleep.
    expect(Date.now() - started).toBeLessThan(500);
    expect(received).toEqual([{ type: 'text-delta', text: 'x' }]);
  });

  it('throws the signal’s own reason when one is given', async () => {
    const model = scriptedModel(script('[{"text":"abcdefgh"}]'), { sleep: instantSleep });
    const controller = new AbortController();
    const reason = new Error('user pressed Stop');
    const run = (async () => {
      for await (const _part of model.streamStep(request({ signal: controller.signal }))) controller.abort(reason);
    })();
    await expect(run).rejects.toBe(reason);
  });

  it('continues an interrupted reply by streaming only the remainder, without repeating reasoning', async () => {
    const model = scriptedModel(script('[{"reasoning":"hmm","text":"Hello {{lastUserMessage}}!","toolCalls":[{"name":"t"}]}]'), {
      sleep: instantSleep,
    });
    const history = [message('user', [{ type: 'text', text: 'Ada' }]), message('assistant', [{ type: 'text', text: 'Hello A' }])];
    const parts = await collect(model.streamStep(request({ history, continuation: { messageId: 'm1', text: 'Hello A' } })));
    expect(textOf(parts)).toBe('da!');
    expect(textOf(parts, 'reasoning-delta')).toBe('');
    expect(parts.at(-2)).toMatchObject({ type: 'tool-call', toolCallId: 'call_0_0' });
  });

  it('streams the whole text when the interrupted text is not a prefix of it', async () => {
    const model = scriptedModel(script('[{"text":"Hello there"}]'), { sleep: instantSleep });
    const parts = await collect(model.streamStep(request({ continuation: { messageId: 'm1', text: 'Goodbye' } })));
    expect(textOf(parts)).toBe('Hello there');
  });
});

describe('parseScript', () => {
  it('accepts the array form and the object form', () => {
    expect(parseScript('[{"text":"hi"}]')).toEqual({ ok: true, script: { steps: [{ text: 'hi' }], chunkSize: 4, chunkDelayMs: 25 } });
    expect(parseScript('{"steps":[],"chunkSize":1,"chunkDelayMs":0}')).toEqual({
      ok: true,
      script: { steps: [], chunkSize: 1, chunkDelayMs: 0 },
    });
  });

  it.each([
    ['[{"text":"a"},{},{"toolCalls":[{"name":3}]}]', 'steps[2].toolCalls[0].name: expected a string'],
    ['{"steps":[{"toolCalls":[{"args":{}}]}]}', 'steps[0].toolCalls[0].name: expected a string, it is missing'],
    ['[{"text":"a","tool_calls":[]}]', 'steps[0]: unknown key "tool_calls"'],
    ['{"steps":[],"chunkSize":0}', 'chunkSize: must be at least 1'],
    ['{"steps":[],"chunkDelayMs":2.5}', 'chunkDelayMs: expected a whole number'],
    ['{"steps":"nope"}', 'steps: expected an array, got a string'],
    ['[{"toolCalls":[{"name":"t","args":[1]}]}]', 'steps[0].toolCalls[0].args: expected an object, got an array'],
    ['[{"usage":{"inputTokens":-1}}]', 'steps[0].usage.inputTokens: must be at least 0'],
    ['42', 'script: expected an array of steps or an object with "steps"'],
  ])('names the field in %s', (text, expected) => {
    const result = parseScript(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(expected);
  });

  it('reports JSON syntax errors', () => {
    const result = parseScript('[{"text": "unterminated}]');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^The script is not valid JSON: /);
  });
});

describe('DEMO_SCRIPT', () => {
  const parsed = script(DEMO_SCRIPT);

  it('parses, uses the default pace and runs three steps', () => {
    expect(parsed.steps).toHaveLength(3);
    expect(parsed).toMatchObject({ chunkSize: 4, chunkDelayMs: 25 });
    expect(DEMO_SCRIPT).toContain('\n  "steps"');
  });

  it('runs, in each language, as declared: what the parser makes of its text, which the demo is not parsed for', async () => {
    expect(await builtInDemo(DEMO_SCRIPT)).toEqual(parsed);
    const chinese = await demoScriptIn('zh-CN');
    expect(await builtInDemo(chinese)).toEqual(script(chinese));
    expect(await builtInDemo(DEMO_SCRIPT.replace('Hi!', 'Hello!'))).toBeUndefined();
  });

  it('asks a valid question with a single choice, a multi-select and a free-text Other', async () => {
    const model = scriptedModel(parsed, { sleep: instantSleep });
    const parts = await collect(model.streamStep(request()));
    expect(textOf(parts)).toContain('Plan my weekend');
    const calls = parts.filter((part) => part.type === 'tool-call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolName: 'question', toolCallId: 'call_0_0' });
    const input = QuestionToolInput.parse(calls[0]?.type === 'tool-call' ? calls[0].input : undefined);
    expect(input.questions).toHaveLength(3);
    const [single, multi, other] = input.questions;
    expect(single?.multiple).toBe(false);
    expect(single?.options.every((option) => option.description !== undefined)).toBe(true);
    expect(multi?.multiple).toBe(true);
    expect(other?.custom).toBe(true);
  });

  it('quotes the tool result in its plan, then explains Settings', async () => {
    const model = scriptedModel(parsed, { sleep: instantSleep });
    const history = [
      message('user', [{ type: 'text', text: 'Plan my weekend' }]),
      message('assistant', [
        { type: 'request', kind: 'question', requestId: 'call_0_0', toolCallId: 'call_0_0', payload: { questions: [] }, status: 'success', resolution: 'answered', response: { toolResult: '"Mood"="Slow and cozy"' } },
      ]),
    ];
    const plan = textOf(await collect(model.streamStep(request({ completedSteps: 1, history }))));
    expect(plan).toContain('> "Mood"="Slow and cozy"');
    expect(plan).toMatch(/^## /m);
    expect(plan).toContain('| --- |');
    const outro = textOf(await collect(model.streamStep(request({ completedSteps: 2, history }))));
    expect(outro).toContain('Settings → Script');
  });
});

import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProviderServer, type ProviderServer, type ScriptedReply } from '../server/provider-server';
import { ModelError, type Model, type ModelPart, type ModelRequest } from '../../src/core/run/model';
import { toolSpecs } from '../../src/core/tools/tools';
import { resolveQuestionBlock } from '../../src/core/requests/question-outcomes';
import { createModelForProfile } from '../../src/worker/providers/registry';
import { parseRetryAfter, scrubSecret } from '../../src/worker/providers/errors';
import { CONTINUE_INSTRUCTION } from '../../src/core/prompt/prompt';
import type { Block } from '../../src/schema/messages/blocks';
import type { Conversation, Message, Profile, ProviderKind } from '../../src/schema/records';

const KEY = 'sk-test-5f1e2d3c4b5a69788796a5b4';
const APP_ORIGIN = 'http://localhost:4173';

let server: ProviderServer;
beforeAll(async () => {
  // The SDK logs a warning per call for model ids it does not know (ours are made up).
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(() => vi.unstubAllGlobals());

const conversation: Conversation = { id: 'c1', title: 'Test', createdAt: 0, updatedAt: 0, runState: 'running', completedSteps: 0 };
let sequence = 0;
function message(role: 'user' | 'assistant', blocks: Block[], status: Message['status'] = 'complete'): Message {
  sequence += 1;
  return { id: `m${sequence}`, conversationId: 'c1', seq: sequence, role, blocks, status, createdAt: 0, updatedAt: 0 };
}
const userSays = (text: string) => message('user', [{ type: 'text', text }]);

function profile(kind: Exclude<ProviderKind, 'scripted'>, overrides: Partial<Profile> = {}): Profile {
  return { id: 'p1', name: 'Test', kind, baseUrl: `${server.url}/v1`, apiKey: KEY, model: 'test-model', ...overrides };
}

function request(history: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { conversation, history, tools: toolSpecs(), signal: new AbortController().signal, ...extra };
}

async function run(model: Model, modelRequest: ModelRequest): Promise<{ parts: ModelPart[]; error?: unknown }> {
  const parts: ModelPart[] = [];
  try {
    for await (const part of model.streamStep(modelRequest)) parts.push(part);
    return { parts };
  } catch (error) {
    return { parts, error };
  }
}

const textOf = (parts: ModelPart[], type: 'text-delta' | 'reasoning-delta') =>
  parts.flatMap((part) => (part.type === type ? [part.text] : [])).join('');

/**
 * A fetch that behaves like a browser's towards CORS: it sends Origin and fails with "Failed to fetch" unless the
 * answer allows this origin; `no-cors` requests get through (opaque). `hosts` maps made-up host names to 127.0.0.1.
 */
function browserFetch(hosts: Record<string, string> = {}): typeof fetch {
  return async (input, init) => {
    let url = String(input instanceof Request ? input.url : input);
    for (const [name, target] of Object.entries(hosts)) url = url.replace(name, target);
    const headers = new Headers(init?.headers);
    headers.set('origin', APP_ORIGIN);
    const { mode, ...rest } = init ?? {};
    const response = await fetch(url, { ...rest, headers });
    if (mode === 'no-cors') return response;
    const allowed = response.headers.get('access-control-allow-origin');
    if (allowed !== APP_ORIGIN && allowed !== '*') {
      await response.body?.cancel();
      throw new TypeError('Failed to fetch');
    }
    return response;
  };
}

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

const QUESTION_ARGS = {
  questions: [
    {
      header: 'Café ☕',
      question: 'Which “brew” do you want? 🍵',
      options: [{ label: 'Espresso', description: 'Short, strong — très fort' }, { label: 'Latte' }],
      multiple: false,
      custom: true,
    },
  ],
};

const KINDS = ['openai-compatible', 'anthropic'] as const;

describe.each(KINDS)('%s against a real HTTP server', (kind) => {
  const build = (overrides: Partial<Profile> = {}, hosts?: Record<string, string>) =>
    createModelForProfile(profile(kind, overrides), '', hosts ? { fetch: browserFetch(hosts) } : {});

  it('streams reasoning and text, reports usage, and sends the key only as the provider expects', async () => {
    server.enqueue({ text: 'Hello there, naïve wörld 🌍!', reasoning: 'The user greets me…', usage: { inputTokens: 123, outputTokens: 45 } });
    const { parts, error } = await run(await build(), request([userSays('hi')]));
    expect(error).toBeUndefined();
    expect(textOf(parts, 'text-delta')).toBe('Hello there, naïve wörld 🌍!');
    expect(textOf(parts, 'reasoning-delta')).toBe('The user greets me…');
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(1);
    expect(parts.at(-1)).toEqual({ type: 'finish', usage: { inputTokens: 123, outputTokens: 45 } });

    const [sent] = server.requests;
    const body = sent?.body as Record<string, unknown>;
    if (kind === 'anthropic') {
      expect(sent?.path).toBe('/v1/messages');
      expect(sent?.headers['x-api-key']).toBe(KEY);
      expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
      expect(sent?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
      expect(sent?.headers.authorization).toBeUndefined();
      expect((body.tools as Array<{ name: string; input_schema: unknown }>).map((tool) => tool.name)).toEqual(['question', 'get_current_time']);
      expect((body.tools as Array<{ input_schema: unknown }>)[0]?.input_schema).toMatchObject(toolSpecs()[0]!.inputSchema);
    } else {
      expect(sent?.path).toBe('/v1/chat/completions');
      expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sent?.headers['x-api-key']).toBeUndefined();
      expect(body.stream).toBe(true);
      expect(body.stream_options).toEqual({ include_usage: true });
      const tools = body.tools as Array<{ function: { name: string; parameters: unknown } }>;
      expect(tools.map((tool) => tool.function.name)).toEqual(['question', 'get_current_time']);
      expect(tools[0]?.function.parameters).toMatchObject(toolSpecs()[0]!.inputSchema);
    }
    expect(body.model).toBe('test-model');
    // The SDK's own user-agent would make Firefox preflight a header many servers do not allow.
    expect(sent?.headers['user-agent'] ?? '').not.toContain('ai-sdk');
  });

  it('reassembles tool-call arguments split mid-key and mid-character, for several calls', async () => {
    server.enqueue({ text: 'Let me ask.', toolCalls: [{ id: 'call_q', name: 'question', args: QUESTION_ARGS }, { id: 'call_t', name: 'get_current_time', args: {} }] });
    const { parts, error } = await run(await build(), request([userSays('plan my café visit')]));
    expect(error).toBeUndefined();
    const calls = parts.filter((part) => part.type === 'tool-call');
    expect(calls).toEqual([
      { type: 'tool-call', toolCallId: 'call_q', toolName: 'question', input: QUESTION_ARGS },
      { type: 'tool-call', toolCallId: 'call_t', toolName: 'get_current_time', input: {} },
    ]);
    expect(parts.at(-1)?.type).toBe('finish');
  });

  it('passes on a tool call whose arguments are not JSON, with the raw text, for our validator to answer', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_bad', name: 'question', rawArguments: '{"questions": [{"header": "oops"' }] });
    const { parts, error } = await run(await build(), request([userSays('ask me')]));
    expect(error).toBeUndefined();
    expect(parts.find((part) => part.type === 'tool-call')).toEqual({
      type: 'tool-call', toolCallId: 'call_bad', toolName: 'question', input: '{"questions": [{"header": "oops"',
    });
  });

  it('round-trips an answered question: the next request carries the call and its result exactly once', async () => {
    server.enqueue({ text: 'A question first.', toolCalls: [{ id: 'call_q', name: 'question', args: QUESTION_ARGS }] }, { text: 'Espresso it is.' });
    const model = await build();
    const first = await run(model, request([userSays('coffee?')]));
    const call = first.parts.find((part) => part.type === 'tool-call');
    expect(call?.type === 'tool-call' && call.input).toEqual(QUESTION_ARGS);

    const pending = { type: 'request' as const, kind: 'question' as const, requestId: 'call_q', toolCallId: 'call_q', payload: { questions: QUESTION_ARGS.questions }, status: 'pending' as const };
    const resolved = resolveQuestionBlock(pending, 'answered', { now: 1, answers: [{ selected: ['Espresso'] }] });
    const history = [userSays('coffee?'), message('assistant', [{ type: 'text', text: 'A question first.' }, resolved])];
    const second = await run(model, request(history, { conversation: { ...conversation, completedSteps: 1 } }));
    expect(second.error).toBeUndefined();
    expect(textOf(second.parts, 'text-delta')).toBe('Espresso it is.');

    const body = server.requests[1]?.body as { messages: Array<Record<string, unknown>> };
    const wire = JSON.stringify(body.messages);
    if (kind === 'anthropic') {
      const assistantIndex = body.messages.findIndex((entry) => entry.role === 'assistant');
      const assistant = body.messages[assistantIndex] as { content: Array<Record<string, unknown>> };
      expect(assistant.content).toContainEqual({ type: 'tool_use', id: 'call_q', name: 'question', input: QUESTION_ARGS });
      const next = body.messages[assistantIndex + 1] as { role: string; content: Array<Record<string, unknown>> };
      expect(next.role).toBe('user');
      expect(next.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_q', content: resolved.response?.toolResult });
      expect(wire.match(/"tool_use_id":"call_q"/g)).toHaveLength(1);
      expect(wire.match(/"type":"tool_use"/g)).toHaveLength(1);
    } else {
      const assistantIndex = body.messages.findIndex((entry) => entry.role === 'assistant');
      const assistant = body.messages[assistantIndex] as { content: unknown; tool_calls: Array<{ id: string; type: string; function: { name: string; arguments: string } }> };
      expect(assistant.content).toBe('A question first.');
      expect(assistant.tool_calls).toHaveLength(1);
      expect(assistant.tool_calls[0]).toMatchObject({ id: 'call_q', type: 'function', function: { name: 'question' } });
      expect(JSON.parse(assistant.tool_calls[0]!.function.arguments)).toEqual(QUESTION_ARGS);
      expect(body.messages[assistantIndex + 1]).toEqual({ role: 'tool', tool_call_id: 'call_q', content: resolved.response?.toolResult });
      expect(body.messages.filter((entry) => entry.role === 'tool')).toHaveLength(1);
      expect(wire.match(/"tool_call_id":"call_q"/g)).toHaveLength(1);
    }
  });

  it('on a continuation, sends the partial assistant message last, without its trailing space', async () => {
    server.enqueue({ text: ' time.' });
    const partial = message('assistant', [{ type: 'text', text: 'Once upon a ' }], 'interrupted');
    const history = [userSays('tell a story'), partial];
    const { error } = await run(await build(), request(history, { continuation: { messageId: partial.id, text: 'Once upon a ' } }));
    expect(error).toBeUndefined();
    const messages = (server.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    if (kind === 'anthropic') {
      expect(messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Once upon a' }] });
    } else {
      // Chat Completions does not continue a trailing assistant message: it is asked to, once, in this request only.
      expect(messages.at(-2)).toEqual({ role: 'assistant', content: 'Once upon a' });
      expect(messages.at(-1)).toEqual({ role: 'user', content: CONTINUE_INSTRUCTION });
    }
  });

  it('on a continuation, drops a model\'s exact restart of what was already written', async () => {
    server.enqueue({ text: 'Once upon a time, there was a test.' });
    const partial = message('assistant', [{ type: 'text', text: 'Once upon a ' }], 'interrupted');
    const { parts, error } = await run(await build(), request([userSays('tell a story'), partial], { continuation: { messageId: partial.id, text: 'Once upon a ' } }));
    expect(error).toBeUndefined();
    expect(textOf(parts, 'text-delta')).toBe(' time, there was a test.');
  });

  it('on a continuation, lets a different beginning through whole', async () => {
    server.enqueue({ text: 'Sorry, where was I? Ah yes.' });
    const partial = message('assistant', [{ type: 'text', text: 'Once upon a ' }], 'interrupted');
    const { parts } = await run(await build(), request([userSays('tell a story'), partial], { continuation: { messageId: partial.id, text: 'Once upon a ' } }));
    expect(textOf(parts, 'text-delta')).toBe('Sorry, where was I? Ah yes.');
  });

  const misbehaviours: Array<{ name: string; reply: ScriptedReply; code: ModelError['code']; says: RegExp; retryAfterMs?: number }> = [
    { name: '401', reply: { fail: 401, echoKeyInError: true }, code: 'auth', says: /API key was rejected \(HTTP 401\)/ },
    { name: '403', reply: { fail: 403 }, code: 'auth', says: /API key was rejected \(HTTP 403\)/ },
    { name: '404', reply: { fail: 404 }, code: 'not_found', says: /404.*model "test-model" may not exist.*base URL/ },
    { name: '500', reply: { fail: 500 }, code: 'server', says: /server error \(HTTP 500\)/ },
    { name: '429 with Retry-After seconds', reply: { fail: 429, retryAfterSeconds: 7 }, code: 'rate_limited', says: /rate-limiting.*wait 7 s/, retryAfterMs: 7000 },
    { name: '429 with retry-after-ms', reply: { fail: 429, retryAfterMs: 1500 }, code: 'rate_limited', says: /rate-limiting/, retryAfterMs: 1500 },
    { name: '400 echoing the key', reply: { fail: 400, errorMessage: 'messages.0: field required', echoKeyInError: true }, code: 'bad_request', says: /rejected the request \(HTTP 400\).*messages\.0: field required.*•••/ },
    { name: 'a socket cut mid-stream', reply: { text: 'This answer will be cut off somewhere in the middle.', cutAfterChunks: 6 }, code: 'bad_stream', says: /stopped in the middle.*Continue/ },
    { name: 'a stream that ends early', reply: { text: 'This answer ends early without any finish event.', endAfterChunks: 6 }, code: 'bad_stream', says: /stopped in the middle.*Continue/ },
    { name: 'garbage SSE', reply: { garbage: true, text: 'hello' }, code: 'bad_stream', says: /malformed/ },
    { name: 'an error event mid-stream', reply: { text: 'Starting…', midStreamError: 'Overloaded' }, code: 'server', says: /server error.*Overloaded/ },
  ];
  it.each(misbehaviours)('classifies $name as $code, without the key in the message', async ({ reply, code, says, retryAfterMs }) => {
    server.enqueue(reply);
    const { error } = await run(await build(), request([userSays('hi')]));
    expect(error).toBeInstanceOf(ModelError);
    const modelError = error as ModelError;
    expect(modelError.code).toBe(code);
    expect(modelError.message).toMatch(says);
    expect(modelError.message).not.toContain(KEY);
    if (retryAfterMs !== undefined) expect(modelError.retryAfterMs).toBe(retryAfterMs);
  });

  it('keeps the text that arrived before a cut', async () => {
    server.enqueue({ text: 'abcdefghijklmnopqrstuvwxyz', cutAfterChunks: 7 });
    const { parts, error } = await run(await build(), request([userSays('hi')]));
    expect((error as ModelError).code).toBe('bad_stream');
    expect(textOf(parts, 'text-delta').length).toBeGreaterThan(0);
    expect('abcdefghijklmnopqrstuvwxyz'.startsWith(textOf(parts, 'text-delta'))).toBe(true);
  });

  it('reads Retry-After given as an HTTP date', async () => {
    server.enqueue({ fail: 429, retryAfter: new Date(Date.now() + 30_000).toUTCString() });
    const { error } = await run(await build(), request([userSays('hi')]));
    expect((error as ModelError).code).toBe('rate_limited');
    expect((error as ModelError).retryAfterMs).toBeGreaterThan(25_000);
    expect((error as ModelError).retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('says CORS, naming this origin, when the server answers without allowing it', async () => {
    vi.stubGlobal('location', { origin: APP_ORIGIN, protocol: 'http:' });
    server.enqueue({ noCors: true, text: 'never read' });
    const { error } = await run(await build({}, {}), request([userSays('hi')]));
    expect((error as ModelError).code).toBe('cors');
    expect((error as ModelError).message).toContain(`must allow the origin ${APP_ORIGIN} and the request headers`);
    expect((error as ModelError).message).toContain(kind === 'anthropic' ? 'x-api-key' : 'authorization');
    expect((error as ModelError).message).not.toContain(KEY);
  });

  it('says network when the server cannot be reached, and offline when the browser is offline', async () => {
    const unreachable = await closedPortUrl();
    const first = await run(await build({ baseUrl: unreachable }), request([userSays('hi')]));
    expect((first.error as ModelError).code).toBe('network');
    expect((first.error as ModelError).message).toContain(`Cannot reach ${unreachable}`);
    vi.stubGlobal('navigator', { onLine: false });
    const second = await run(await build({ baseUrl: unreachable }), request([userSays('hi')]));
    expect((second.error as ModelError).code).toBe('network');
    expect((second.error as ModelError).message).toMatch(/offline/);
  });

  it('stops on abort with the abort reason, not a ModelError', async () => {
    server.enqueue({ text: 'a long answer that streams slowly enough to be stopped', delayMsPerChunk: 20 });
    const controller = new AbortController();
    const parts: ModelPart[] = [];
    let caught: unknown;
    try {
      for await (const part of (await build()).streamStep(request([userSays('hi')], { signal: controller.signal }))) {
        parts.push(part);
        if (parts.length === 2) controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).not.toBeInstanceOf(ModelError);
    expect((caught as Error).name).toBe('AbortError');
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
  });
});

describe('openai-compatible specifics', () => {
  it('tells an Ollama user to set OLLAMA_ORIGINS to this origin', async () => {
    vi.stubGlobal('location', { origin: APP_ORIGIN, protocol: 'http:' });
    server.enqueue({ noCors: true });
    const host = new URL(server.url).host;
    const model = await createModelForProfile(profile('openai-compatible', { baseUrl: `http://ollama.test/v1`, apiKey: '' }), '', {
      fetch: browserFetch({ 'ollama.test': host }),
    });
    const { error } = await run(model, request([userSays('hi')]));
    expect((error as ModelError).code).toBe('cors');
    expect((error as ModelError).message).toContain(`OLLAMA_ORIGINS=${APP_ORIGIN}`);
  });

  it('sends no Authorization header when the profile has no key (local servers)', async () => {
    server.enqueue({ text: 'ok' });
    await run(await createModelForProfile(profile('openai-compatible', { apiKey: '' }), ''), request([userSays('hi')]));
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('createModelForProfile', () => {
  it('builds the scripted model from the script text', async () => {
    const model = await createModelForProfile({ id: 'scripted', name: 'Scripted', kind: 'scripted', baseUrl: '', apiKey: '', model: '' }, JSON.stringify({ steps: [{ text: 'Hi from the script' }], chunkDelayMs: 0 }));
    const { parts } = await run(model, request([userSays('hi')]));
    expect(textOf(parts, 'text-delta')).toBe('Hi from the script');
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a bad script with a config error naming the problem', async () => {
    const scripted: Profile = { id: 'scripted', name: 'Scripted', kind: 'scripted', baseUrl: '', apiKey: '', model: '' };
    await expect(createModelForProfile(scripted, '[{"text": 42}]')).rejects.toMatchObject({ code: 'config', message: expect.stringContaining('text') });
    await expect(createModelForProfile(scripted, '{not json')).rejects.toMatchObject({ code: 'config', message: expect.stringContaining('JSON') });
  });

  it.each([
    { overrides: { baseUrl: '' }, says: 'a base URL' },
    { overrides: { baseUrl: 'localhost:11434' }, says: 'http:// or https://' },
    { overrides: { model: ' ' }, says: 'a model name' },
  ])('rejects an incomplete profile ($says) with a config error', async ({ overrides, says }) => {
    await expect(createModelForProfile(profile('openai-compatible', overrides), '')).rejects.toMatchObject({ code: 'config', message: expect.stringContaining(says) });
  });

  it('wants a key for Anthropic but not for OpenAI-compatible servers', async () => {
    await expect(createModelForProfile(profile('anthropic', { apiKey: '' }), '')).rejects.toMatchObject({ code: 'config', message: expect.stringContaining('an API key') });
    // A model on this device needs no base URL or key, only its model (downloaded in Settings).
    await expect(createModelForProfile(profile('in-browser', { baseUrl: '', apiKey: '', model: ' ' }), '')).rejects.toMatchObject({ code: 'config', detail: { key: 'in_browser_no_model' } });
    await expect(createModelForProfile(profile('openai-compatible', { apiKey: '' }), '')).resolves.toBeDefined();
  });
});

describe('errors helpers', () => {
  it('parses Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(parseRetryAfter({ 'retry-after': '12' }, now)).toBe(12_000);
    expect(parseRetryAfter({ 'Retry-After': '1.5' }, now)).toBe(1500);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 01 Jun 2025 12:00:45 GMT' }), now)).toBe(45_000);
    expect(parseRetryAfter({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
  });

  it('scrubs every occurrence of the key', () => {
    expect(scrubSecret(`key ${KEY} and again ${KEY}.`, KEY)).toBe('key ••• and again •••.');
    expect(scrubSecret('nothing to hide', '')).toBe('nothing to hide');
  });

  it('scrubs what a provider echoes of the key: masked forms and bare pieces, not ordinary words', () => {
    const key = 'sk-REDACTEDSECRET';
    expect(scrubSecret('Incorrect API key provided: sk-RED***CRET. You can find your API key at https://example.com.', key)).toBe(
      'Incorrect API key provided: •••. You can find your API key at https://example.com.',
    );
    expect(scrubSecret('key sk-REDA…CRET rejected', key)).toBe('key ••• rejected');
    expect(scrubSecret('key sk-REDxxxxxx rejected', key)).toBe('key ••• rejected');
    expect(scrubSecret('fragment REDACTEDSEC here', key)).toBe('fragment ••• here');
    expect(scrubSecret('Invalid key sk-... for model gpt-4o-mini', key)).toBe('Invalid key sk-... for model gpt-4o-mini');
  });
});

describe('the provider server itself', () => {
  it('answers a CORS preflight and is driven over its HTTP control API', async () => {
    const preflight = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('anthropic-dangerous-direct-browser-access');

    const queued = await fetch(`${server.url}/__control/enqueue`, { method: 'POST', body: JSON.stringify([{ text: 'from control' }]) });
    expect(queued.ok).toBe(true);
    const { parts } = await run(await createModelForProfile(profile('openai-compatible'), ''), request([userSays('hi')]));
    expect(textOf(parts, 'text-delta')).toBe('from control');
    const recorded = (await (await fetch(`${server.url}/__control/requests`)).json()) as Array<{ method: string; path: string }>;
    expect(recorded.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['OPTIONS /v1/chat/completions', 'POST /v1/chat/completions']);
    await fetch(`${server.url}/__control/reset`, { method: 'POST' });
    expect(server.requests).toHaveLength(0);
  });

  it('writes SSE the way the services do: keep-alives, a usage chunk and [DONE]; message_start, pings, message_delta', async () => {
    server.enqueue({ text: 'hi' }, { text: 'hi' });
    const openAi = await (await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, stream_options: { include_usage: true } }) })).text();
    expect(openAi).toMatch(/^: keep-alive$/m);
    expect(openAi).toMatch(/^data: \{.*"choices":\[\],"usage":\{"prompt_tokens":17,"completion_tokens":9,"total_tokens":26\}\}$/m);
    expect(openAi.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const anthropic = await (await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' })).text();
    expect(anthropic).toMatch(/^event: message_start\ndata: .*"usage":\{"input_tokens":17/m);
    expect(anthropic).toMatch(/^event: ping$/m);
    expect(anthropic).toMatch(/^event: message_delta\ndata: .*"usage":\{"output_tokens":9\}/m);
    expect(anthropic.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
  });
});

describe.each(KINDS)('%s: files sent with a message', (kind) => {
  const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const png = Uint8Array.from(atob(PNG_BASE64), (character) => character.charCodeAt(0));
  const withFiles: Message = {
    ...userSays('What is in these?'),
    attachments: [
      { id: 'f1', name: 'pixel.png', mimeType: 'image/png', size: png.length, kind: 'image' },
      { id: 'f2', name: 'data "1".csv', mimeType: 'text/csv', size: 7, kind: 'text' },
    ],
  };
  const contents = new Map([
    ['f1', { kind: 'image' as const, mediaType: 'image/png', bytes: png }],
    ['f2', { kind: 'text' as const, text: 'a,b\n1,2' }],
  ]);
  const csvPart = '<file name="data &quot;1&quot;.csv" type="text/csv">\na,b\n1,2\n</file>';

  it('sends the text, a text file as text under its name, and an image as the provider’s image part', async () => {
    server.enqueue({ text: 'A pixel and a table.' });
    const { error } = await run(await createModelForProfile(profile(kind), ''), request([withFiles], { attachments: contents }));
    expect(error).toBeUndefined();
    const body = server.requests[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    const user = body.messages.find((message) => message.role === 'user');
    if (kind === 'anthropic') {
      expect(user?.content).toEqual([
        { type: 'text', text: 'What is in these?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
        { type: 'text', text: csvPart },
      ]);
    } else {
      expect(user?.content).toEqual([
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        { type: 'text', text: csvPart },
      ]);
    }
  });

  it('a long request (an image of 600 KB) goes as a Blob body, and the server reads the same JSON under the same content type', async () => {
    const large = new Uint8Array(600_000).map((_, index) => (index * 7) & 0xff);
    const sent = vi.spyOn(globalThis, 'fetch');
    try {
      server.enqueue({ text: 'A large picture.' });
      const { error } = await run(await createModelForProfile(profile(kind), ''), request([withFiles], { attachments: new Map([['f1', { kind: 'image' as const, mediaType: 'image/png', bytes: large }]]) }));
      expect(error).toBeUndefined();
      const modelCall = sent.mock.calls.find(([, init]) => init?.method === 'POST');
      expect(modelCall?.[1]?.body).toBeInstanceOf(Blob);
    } finally {
      sent.mockRestore();
    }
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(server.requests[0]?.body)).toContain(Buffer.from(large).toString('base64'));
  });

  it('says a file no longer stored is missing instead of sending nothing about it', async () => {
    server.enqueue({ text: 'ok' });
    await run(await createModelForProfile(profile(kind), ''), request([withFiles], { attachments: new Map([['f2', contents.get('f2')!]]) }));
    expect(JSON.stringify(server.requests[0]?.body)).toContain('<file name=\\"pixel.png\\">[This file is no longer stored, so its content cannot be given.]</file>');
  });
});

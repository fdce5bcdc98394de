import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real local HTTP server that speaks OpenAI chat-completions SSE and Anthropic Messages SSE the way the real
 * services do (split tool arguments, usage chunks, keep-alives, pings, CORS), driven by a queue of scripted replies.
 * Used by the node tests directly and by Playwright through its HTTP control API (/__control/*).
 */

/** One scripted answer, or one misbehaviour, for the next API request. */
export interface ScriptedReply {
  /** Wire format; by default the request's path decides (…/chat/completions → openai, …/messages → anthropic). */
  kind?: 'openai' | 'anthropic';
  text?: string;
  reasoning?: string;
  /** `rawArguments` is sent as the arguments text as is (to send JSON that does not parse); otherwise `args` as JSON. */
  toolCalls?: Array<{ id?: string; name: string; args?: unknown; rawArguments?: string }>;
  usage?: { inputTokens: number; outputTokens: number };
  /** Answer with this HTTP status and the provider's error body instead. */
  fail?: number;
  /** With `fail`: the provider's error message (a realistic one by default). */
  errorMessage?: string;
  /** With `fail`: echo the received key in the error message, as some misbehaving proxies do. */
  echoKeyInError?: boolean;
  /** With `fail: 429`: the Retry-After header in seconds. */
  retryAfterSeconds?: number;
  /** With `fail: 429`: a raw Retry-After header (an HTTP date, say). */
  retryAfter?: string;
  /** With `fail: 429`: the retry-after-ms header. */
  retryAfterMs?: number;
  /** Destroy the socket after this many SSE events. */
  cutAfterChunks?: number;
  /**
   * With `cutAfterChunks`: wait this long before destroying the socket. Bytes the browser has received but the page has
   * not read yet are dropped when the connection errors, so a test that needs the text before a cut gives a busy
   * machine time to read it.
   */
  pauseBeforeCutMs?: number;
  /** End the response cleanly after this many SSE events, with no finish, [DONE] or message_stop (a proxy timing out). */
  endAfterChunks?: number;
  /** After the text, send the provider's in-stream error event with this message (Anthropic overloaded_error; OpenAI-style code 502). */
  midStreamError?: string;
  /** Send a little valid SSE, then a data line that is not JSON, then end. */
  garbage?: boolean;
  /** Omit every CORS header (on the preflight too), as a server that does not allow this origin would. */
  noCors?: boolean;
  delayMsPerChunk?: number;
  /** For GET …/models: the ids to list (a default list otherwise). */
  models?: string[];
  /** For GET …/models: answer 200 with this JSON instead of a list (a base URL that is not an API). */
  modelsBody?: unknown;
  /**
   * Instead of `text`: a reply of this many tokens (`w1 w2 …`, a paragraph break every 50), one token per SSE event,
   * ending with `tokensEnd` if given. For the benchmark's long, fast replies.
   */
  tokens?: number;
  tokensEnd?: string;
  /**
   * What the `tokens` are: words (the default), or `code`, fenced ```ts blocks of realistic lines (40 lines a block,
   * a short paragraph between blocks), cut as a tokenizer cuts code, so a reply is full of code blocks to colour.
   */
  tokensKind?: 'words' | 'code';
  /**
   * Write events back to back in large writes, as a fast local server does, instead of two writes per event. Events
   * are made as they are written, so the first bytes leave at once, as a server's that streams while it generates.
   */
  burst?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it was not JSON; undefined without a body. */
  body: unknown;
  /** When the request arrived and when its answer was fully written: epoch ms with sub-ms precision. */
  receivedAt: number;
  /** The client's port of the connection it came on: two requests with the same one shared a socket. */
  socket?: number;
  answeredAt?: number;
}

export interface ProviderServer {
  /** e.g. http://127.0.0.1:41234 (the API lives under /v1). */
  url: string;
  enqueue(...replies: ScriptedReply[]): void;
  /** Every request received so far, control requests excepted. */
  requests: RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_MODELS = ['test-model', 'test-model-large'];
const DEFAULT_USAGE = { inputTokens: 17, outputTokens: 9 };
const ALLOWED_HEADERS = [
  'authorization',
  'x-api-key',
  'anthropic-version',
  'anthropic-dangerous-direct-browser-access',
  'anthropic-beta',
  'content-type',
].join(', ');

/** Starts the server on 127.0.0.1, at a free port unless `options.port` names one. */
export async function startProviderServer(options: { port?: number } = {}): Promise<ProviderServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const server = createServer((request, response) => {
    const receivedAt = preciseNow();
    void handle(request, response, receivedAt).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse, receivedAt: number): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const raw = await readBody(request);
    const body = parseBody(raw);
    const origin = request.headers.origin;
    const cors = (omit: boolean): Record<string, string> =>
      omit ? {} : { 'access-control-allow-origin': origin ?? '*', vary: 'Origin', 'access-control-expose-headers': '*' };

    if (path === '/__control/ping') return control(path, 'GET', { receivedAt }, response, cors(false));
    if (path.startsWith('/__control/')) return control(path, request.method ?? 'GET', body, response, cors(false));
    const record: RecordedRequest = { method: request.method ?? 'GET', path, headers: flatHeaders(request), body, receivedAt, socket: request.socket.remotePort };
    requests.push(record);
    response.once('finish', () => {
      record.answeredAt = preciseNow();
    });

    if (request.method === 'OPTIONS') {
      const omit = queue[0]?.noCors === true;
      response.writeHead(204, omit ? {} : {
        ...cors(false),
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '600',
      });
      return void response.end();
    }
    const isModels = request.method === 'GET' && path.endsWith('/models');
    const isChat = request.method === 'POST' && (path.endsWith('/chat/completions') || path.endsWith('/messages'));
    if (!isModels && !isChat) {
      response.writeHead(404, { 'content-type': 'application/json', ...cors(false) });
      return void response.end(JSON.stringify({ error: { message: `No route ${request.method} ${path}` } }));
    }
    const kind = isModels
      ? request.headers['anthropic-version'] ? 'anthropic' : 'openai'
      : path.endsWith('/messages') ? 'anthropic' : 'openai';
    const reply = queue.shift() ?? (isModels ? {} : { fail: 500, errorMessage: 'provider-server: no reply queued' });
    const headers = cors(reply.noCors === true);
    if (reply.fail !== undefined) return sendFailure(response, reply.kind ?? kind, reply, request, headers);
    if (isModels && reply.modelsBody !== undefined) {
      response.writeHead(200, { 'content-type': 'application/json', ...headers });
      return void response.end(JSON.stringify(reply.modelsBody));
    }
    if (isModels) return sendModels(response, kind, reply.models ?? DEFAULT_MODELS, headers);
    counter += 1;
    const events = (reply.kind ?? kind) === 'anthropic' ? anthropicEvents(reply, counter) : openAiEvents(reply, counter, body);
    await streamEvents(response, events, reply, headers);
  }

  function control(path: string, method: string, body: unknown, response: ServerResponse, headers: Record<string, string>) {
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers, 'access-control-allow-headers': 'content-type' });
      response.end(JSON.stringify(value));
    };
    if (method === 'OPTIONS') return json(200, {});
    if (path === '/__control/enqueue' && method === 'POST') {
      queue.push(...(Array.isArray(body) ? body : [body]) as ScriptedReply[]);
      return json(200, { queued: queue.length });
    }
    if (path === '/__control/requests' && method === 'GET') return json(200, requests);
    // The benchmark's raw-fetch baseline and clock check: the cheapest answer, saying when the request arrived.
    if (path === '/__control/ping') return json(200, body);
    if (path === '/__control/reset' && method === 'POST') {
      queue.length = 0;
      requests.length = 0;
      return json(200, { reset: true });
    }
    return json(404, { error: `unknown control ${method} ${path}` });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    enqueue: (...replies) => void queue.push(...replies),
    requests,
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An SSE event as written: `event:` line (Anthropic) or none (OpenAI), or a comment line. */
type SseEvent = { event?: string; data: string } | { comment: string };

/** The events of one OpenAI-compatible answer, made one at a time (a 50,000-token answer is not built before it is sent). */
function* openAiEvents(reply: ScriptedReply, counter: number, requestBody: unknown): Generator<SseEvent> {
  const id = `chatcmpl-${counter}`;
  const model = (requestBody as { model?: string } | undefined)?.model ?? 'test-model';
  const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: choice ? [{ index: 0, ...choice }] : [], ...extra }),
  });
  yield chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null });
  yield { comment: ' keep-alive' };
  for (const piece of pieces(reply.reasoning ?? '', 5)) yield chunk({ delta: { reasoning_content: piece }, finish_reason: null });
  const textPieces = reply.tokens !== undefined ? tokenPieces(reply.tokens, reply.tokensEnd, reply.tokensKind) : pieces(reply.text ?? '', 4);
  for (const piece of textPieces) yield chunk({ delta: { content: piece }, finish_reason: null });
  if (reply.midStreamError !== undefined) {
    yield { data: JSON.stringify({ error: { message: reply.midStreamError, code: 502 } }) };
    return;
  }
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const callId = call.id ?? `call_${counter}_${index}`;
    const head = { index, id: callId, type: 'function', function: { name: call.name, arguments: '' } };
    yield chunk({ delta: { tool_calls: [head] }, finish_reason: null });
    // OpenAI escapes non-ASCII (\uXXXX) in arguments; the split lands mid-key and mid-escape.
    for (const piece of awkwardSplit(call.rawArguments ?? asciiJson(call.args ?? {}))) {
      yield chunk({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null });
    }
    if (index === 0) yield { comment: ' keep-alive' };
  }
  yield chunk({ delta: {}, finish_reason: reply.toolCalls?.length ? 'tool_calls' : 'stop' });
  const options = (requestBody as { stream_options?: { include_usage?: boolean } } | undefined)?.stream_options;
  if (options?.include_usage) {
    const usage = reply.usage ?? DEFAULT_USAGE;
    const total = usage.inputTokens + usage.outputTokens;
    yield chunk(null, { usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: total } });
  }
  yield { data: '[DONE]' };
}

function anthropicEvents(reply: ScriptedReply, counter: number): SseEvent[] {
  const usage = reply.usage ?? DEFAULT_USAGE;
  const event = (name: string, data: Record<string, unknown>): SseEvent => ({ event: name, data: JSON.stringify({ type: name, ...data }) });
  const events: SseEvent[] = [
    event('message_start', {
      message: {
        id: `msg_${counter}`, type: 'message', role: 'assistant', content: [], model: 'claude-test',
        stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (reply.reasoning) {
    events.push(event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
    for (const piece of pieces(reply.reasoning, 5)) events.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }));
    events.push(event('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'c2lnbmF0dXJl' } }));
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  if (reply.text || reply.tokens !== undefined) {
    events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    const textPieces = reply.tokens !== undefined ? tokenPieces(reply.tokens, reply.tokensEnd, reply.tokensKind) : pieces(reply.text ?? '', 4);
    for (const piece of textPieces) events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  if (reply.midStreamError !== undefined) return [...events, event('error', { error: { type: 'overloaded_error', message: reply.midStreamError } })];
  (reply.toolCalls ?? []).forEach((call, callIndex) => {
    const id = call.id ?? `toolu_${counter}_${callIndex}`;
    events.push(event('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } }));
    events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }));
    for (const piece of awkwardSplit(call.rawArguments ?? JSON.stringify(call.args ?? {}))) {
      events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
    }
    events.push(event('content_block_stop', { index }));
    if (callIndex === 0) events.push(event('ping', {}));
    index += 1;
  });
  const stopReason = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  events.push(event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.outputTokens } }));
  events.push(event('message_stop', {}));
  return events;
}

async function streamEvents(response: ServerResponse, events: Iterable<SseEvent>, reply: ScriptedReply, headers: Record<string, string>) {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  if (reply.burst && !reply.garbage && reply.cutAfterChunks === undefined && reply.endAfterChunks === undefined && !reply.delayMsPerChunk) return burst(response, events);
  let count = -1;
  for (const event of reply.garbage ? garbled(events) : events) {
    count += 1;
    if (reply.cutAfterChunks !== undefined && count >= reply.cutAfterChunks) {
      if (reply.pauseBeforeCutMs) await new Promise((resolve) => setTimeout(resolve, reply.pauseBeforeCutMs));
      response.socket?.destroy();
      return;
    }
    if (reply.endAfterChunks !== undefined && count >= reply.endAfterChunks) break;
    if (reply.delayMsPerChunk) await new Promise((resolve) => setTimeout(resolve, reply.delayMsPerChunk));
    const text = sseText(event);
    // Two writes per event, cut inside a multi-byte character when there is one: the client must reassemble.
    const bytes = Buffer.from(text, 'utf8');
    const multiByte = bytes.findIndex((byte) => byte >= 0x80);
    const cut = multiByte >= 0 ? multiByte + 1 : Math.floor(bytes.length / 2);
    response.write(bytes.subarray(0, cut));
    await new Promise((resolve) => setImmediate(resolve));
    response.write(bytes.subarray(cut));
  }
  response.end();
}

/** The first two events, then a chunk cut mid-string and a line that is not JSON at all. */
function* garbled(events: Iterable<SseEvent>): Generator<SseEvent> {
  let count = 0;
  for (const event of events) {
    if (count === 2) break;
    yield event;
    count += 1;
  }
  yield { data: '{"id":"broken", "choices": [ {"delta": {"content": "half' };
  yield { data: 'not json at all }' };
}

function sseText(event: SseEvent): string {
  return 'comment' in event ? `:${event.comment}\n\n` : `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
}

/** Every event as fast as the socket takes them: 64 KiB writes, waiting only when the socket asks to. */
async function burst(response: ServerResponse, events: Iterable<SseEvent>): Promise<void> {
  let buffer = '';
  for (const event of events) {
    buffer += sseText(event);
    if (buffer.length < 65_536) continue;
    const flushed = response.write(buffer);
    buffer = '';
    if (!flushed) await new Promise((resolve) => response.once('drain', resolve));
  }
  response.end(buffer);
}

function sendFailure(response: ServerResponse, kind: 'openai' | 'anthropic', reply: ScriptedReply, request: IncomingMessage, headers: Record<string, string>) {
  const status = reply.fail ?? 500;
  const key = String(request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '') ?? '');
  let message = reply.errorMessage ?? defaultErrorMessage(status);
  if (reply.echoKeyInError) message += ` (key: ${key})`;
  const extra: Record<string, string> = {};
  if (reply.retryAfterSeconds !== undefined) extra['retry-after'] = String(reply.retryAfterSeconds);
  if (reply.retryAfter !== undefined) extra['retry-after'] = reply.retryAfter;
  if (reply.retryAfterMs !== undefined) extra['retry-after-ms'] = String(reply.retryAfterMs);
  const errorType = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 429: 'rate_limit_error' }[status] ?? 'api_error';
  const payload = kind === 'anthropic'
    ? { type: 'error', error: { type: errorType, message } }
    : { error: { message, type: errorType, param: null, code: status === 401 ? 'invalid_api_key' : null } };
  response.writeHead(status, { 'content-type': 'application/json', ...headers, ...extra });
  response.end(JSON.stringify(payload));
}

function defaultErrorMessage(status: number): string {
  if (status === 401) return 'Incorrect API key provided.';
  if (status === 403) return 'You are not allowed to use this model.';
  if (status === 404) return 'The model `missing-model` does not exist or you do not have access to it.';
  if (status === 429) return 'Rate limit reached for requests.';
  if (status >= 500) return 'The server had an error while processing your request.';
  return 'Invalid request.';
}

function sendModels(response: ServerResponse, kind: 'openai' | 'anthropic', ids: string[], headers: Record<string, string>) {
  const body = kind === 'anthropic'
    ? { data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })), has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null }
    : { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'provider-server' })) };
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Splits text into pieces of `size` code points. */
function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const result: string[] = [];
  for (let start = 0; start < characters.length; start += size) result.push(characters.slice(start, start + size).join(''));
  return result;
}

/** `count` one-token pieces: ` w1`, ` w2`…, a paragraph break before every 50th, then `end` as the last piece. */
function* tokenPieces(count: number, end?: string, kind: 'words' | 'code' = 'words'): Generator<string> {
  if (kind === 'code') return yield* codePieces(count, end);
  for (let index = 1; index <= count; index += 1) yield index % 50 === 0 ? `\n\nw${index}` : ` w${index}`;
  if (end !== undefined) yield end;
}

/** A TypeScript module's worth of lines, as models write them: comments, strings, generics, template literals. */
const CODE_LINES = [
  'import { readFile } from "node:fs/promises";',
  '',
  '/** A user as the API returns it; `roles` is empty for guests. */',
  'export interface User {',
  '  id: string;',
  '  name: string;',
  '  roles: readonly string[];',
  '  lastSeen?: Date;',
  '}',
  '',
  'export async function loadUser(id: string, signal?: AbortSignal): Promise<User | undefined> {',
  '  const response = await fetch(`/api/users/${encodeURIComponent(id)}`, { signal });',
  '  if (response.status === 404) return undefined;',
  "  if (!response.ok) throw new Error(`Loading user ${id} failed: ${response.status}`);",
  '  const body = (await response.json()) as { user?: User };',
  '  // Older servers send the user at the top level.',
  '  return body.user ?? (body as unknown as User);',
  '}',
  '',
  'export function groupByRole(users: User[]): Map<string, User[]> {',
  '  const groups = new Map<string, User[]>();',
  '  for (const user of users) {',
  '    for (const role of user.roles.length > 0 ? user.roles : ["guest"]) {',
  '      const list = groups.get(role) ?? [];',
  '      list.push(user);',
  '      groups.set(role, list);',
  '    }',
  '  }',
  '  return groups;',
  '}',
  '',
  'const config = JSON.parse(await readFile("config.json", "utf8")) as { retries: number };',
  'let attempt = 0;',
  'while (attempt < config.retries) {',
  '  attempt += 1; /* back off: 100 ms, 200 ms, 400 ms… */',
  '  await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));',
  '}',
  'export const isAdmin = (user: User): boolean => user.roles.includes("admin");',
  'export type Handler<T> = (event: { type: string; payload: T }) => void | Promise<void>;',
  'console.log(`loaded ${attempt} times`, { ok: true, at: new Date().toISOString() });',
];

/** Code tokens: a word or a run of symbols with the space before it, the line's end on its last token. */
function* codePieces(count: number, end?: string): Generator<string> {
  let emitted = 0;
  let block = 0;
  while (emitted < count) {
    block += 1;
    yield `${block === 1 ? '' : '\n\n'}Step ${block}:\n\n\`\`\`ts\n`;
    emitted += 1;
    for (const line of CODE_LINES) {
      const tokens: string[] = [...(line.match(/\s*[\w$]+|\s*[^\w\s]+|\s+/g) ?? [])];
      if (tokens.length === 0) tokens.push('');
      tokens[tokens.length - 1] += '\n';
      for (const token of tokens) {
        yield token;
        emitted += 1;
      }
      if (emitted >= count) break;
    }
    yield '```';
  }
  if (end !== undefined) yield `\n\n${end.trim()}`;
}

/** Wall-clock time with sub-millisecond precision, comparable with a page's `performance.timeOrigin + now()`. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Cuts JSON text mid-first-key, inside the first \u escape if any, then every 7 characters. */
function awkwardSplit(json: string): string[] {
  const cuts = new Set<number>([Math.min(4, json.length)]);
  const escape = json.indexOf('\\u');
  if (escape >= 0) cuts.add(escape + 3);
  for (let position = 7; position < json.length; position += 7) cuts.add(position);
  const sorted = [...cuts].filter((cut) => cut > 0 && cut < json.length).sort((a, b) => a - b);
  return [0, ...sorted].map((start, index) => json.slice(start, sorted[index] ?? json.length));
}

/** JSON with every non-ASCII character written as \uXXXX, as OpenAI sends tool arguments. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/**
 * The one file that imports the MCP SDK. The hub loads it with a dynamic import, so the SDK (about 100 KB) is fetched
 * only when a server is first used, not when the worker starts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { CallToolResultSchema, ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import * as z from '../../schema/zod-mini';
import { findSchemaProblems } from '../../core/requests/json-schema-form';
import type { ElicitationRequest, ElicitationResponse } from '../../core/tools/tool';
import type { ToolProgress } from '../../schema/events';
import { checkElicitationResponse } from '../../core/requests/json-schema-form';
import type { CallToolResultLike } from './tool-result';

/** A tool as the server lists it, unchecked (the hub checks each one, so one bad schema does not hide the others). */
export interface ListedTool {
  name: unknown;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** Why connecting failed, before the hub words it (the CORS/unreachable split needs a probe the hub makes). */
export type ConnectFailure =
  | { kind: 'unauthorized'; status: number }
  | { kind: 'http'; status: number; detail: string }
  | { kind: 'fetch_failed'; detail: string }
  | { kind: 'protocol'; detail: string };

export class McpConnectError extends Error {
  override readonly name = 'McpConnectError';
  constructor(
    readonly failure: ConnectFailure,
    options?: { cause?: unknown },
  ) {
    super('detail' in failure ? failure.detail : `HTTP ${failure.status}`, options);
  }
}

interface ConnectOptions {
  url: string;
  /** Sent as `Authorization: Bearer …`, only to `url`'s origin. */
  token?: string;
  fetch?: typeof fetch;
  /** Called when the connection ends (server gone, session closed), not when `close()` is called. */
  onClose(): void;
  /** Answers an elicitation request that arrived while a call was in flight; undefined → decline. */
  onElicit(request: ElicitationRequest): Promise<ElicitationResponse> | undefined;
  clientVersion: string;
}

interface CallOptions {
  signal: AbortSignal;
  /** The server's progress notifications for this call, bounded (the server is untrusted). */
  onProgress?(progress: ToolProgress): void;
}

/** An open connection to one server. */
export interface McpConnection {
  transport: 'streamable-http' | 'sse';
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResultLike>;
  /** MCP's `ping`: a request with the same headers as a call, answered with nothing (see McpHub.prepareCall). */
  ping(): Promise<void>;
  /**
   * When the browser's CORS preflight for this connection's requests has expired, as far as can be told from here
   * (see preflightClock): a request sent after it waits for a new one.
   */
  preflightExpiresAt(): number;
  close(): Promise<void>;
}

/** How long the handshake may take: a server that accepts the connection and never answers is an error, not a hang. */
const CONNECT_TIMEOUT_MS = 15_000;
/** How long a call may stay silent; progress notifications reset it (long-running tools report progress). */
const CALL_TIMEOUT_MS = 5 * 60_000;
const MAX_TOOL_PAGES = 20;

const LaxToolList = z.looseObject({ tools: z.array(z.looseObject({ name: z.unknown() })), nextCursor: z.optional(z.string()) });

/** Interprets output schemas without code generation (the SDK's default, Ajv, compiles with `new Function`). */
const noEvalValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown) {
    return (input: unknown) => {
      const problems = findSchemaProblems(schema, input);
      if (problems.length === 0) return { valid: true as const, data: input as T, errorMessage: undefined };
      return { valid: false as const, data: undefined, errorMessage: problems.map((problem) => `${problem.path || 'value'} ${problem.message}`).join('; ') };
    };
  },
};

/** How long Chromium keeps a CORS preflight's answer when the server names no `Access-Control-Max-Age`. */
const PREFLIGHT_KEPT_MS = 5_000;

/**
 * `base`, timing the preflights its POSTs (every call) need, which the page cannot see: one sent when the last one has
 * expired waited for a new one, answered before its own response, so that one is at most as old as this response. A
 * server that keeps them longer (`Access-Control-Max-Age`) only makes this early.
 */
function preflightClock(base: typeof fetch): { fetch: typeof fetch; expiresAt(): number } {
  let preflightAt = Number.NEGATIVE_INFINITY;
  const clocked: typeof fetch = async (input, init) => {
    const sentAt = Date.now();
    const response = await base(input, init);
    if (init?.method === 'POST' && sentAt >= preflightAt + PREFLIGHT_KEPT_MS) preflightAt = Date.now();
    return response;
  };
  return { fetch: clocked, expiresAt: () => preflightAt + PREFLIGHT_KEPT_MS };
}

/** Opens a connection: Streamable HTTP first, the older HTTP+SSE transport when the server answers that with a 4xx. */
export async function openMcpConnection(options: ConnectOptions): Promise<McpConnection> {
  const url = new URL(options.url);
  const clock = preflightClock(options.fetch ?? globalThis.fetch.bind(globalThis));
  const fetchWithToken = tokenFetch(url.origin, options.token, clock.fetch);
  try {
    return await connectWith(options, 'streamable-http', new StreamableHTTPClientTransport(url, { fetch: fetchWithToken }), clock.expiresAt);
  } catch (error) {
    const failure = classify(error);
    if (failure.kind !== 'http' || failure.status < 400 || failure.status >= 500) throw new McpConnectError(failure, { cause: error });
    try {
      return await connectWith(options, 'sse', new SSEClientTransport(url, { fetch: fetchWithToken }), clock.expiresAt);
    } catch (sseError) {
      // An SSE attempt that got an answer (a refused token, a bad endpoint) says more; one that got nothing says less
      // than the first failure (the server is simply not an SSE server).
      const sseFailure = classify(sseError);
      const saysMore = sseFailure.kind === 'unauthorized' || sseFailure.kind === 'protocol';
      throw new McpConnectError(saysMore ? sseFailure : failure, { cause: saysMore ? sseError : error });
    }
  }
}

async function connectWith(options: ConnectOptions, kind: McpConnection['transport'], transport: StreamableHTTPClientTransport | SSEClientTransport, preflightExpiresAt: () => number): Promise<McpConnection> {
  const client = new Client(
    { name: 'parley', version: options.clientVersion },
    { capabilities: { elicitation: { form: {} } }, jsonSchemaValidator: noEvalValidator },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params as { mode?: string; message: string; requestedSchema?: Record<string, unknown> };
    if (params.mode === 'url' || !params.requestedSchema) return { action: 'decline' };
    const requestedSchema = params.requestedSchema;
    const pending = options.onElicit({ message: params.message, requestedSchema });
    if (!pending) return { action: 'decline' };
    // The server may give up on its question (its call was cancelled): stop waiting for the answer then.
    const checked = checkElicitationResponse(requestedSchema, await untilAborted(pending, extra.signal));
    if (!checked.ok) throw new McpError(ErrorCode.InvalidParams, `The answer does not satisfy the requested schema: ${checked.error}`);
    return checked.response;
  });
  let closing = false;
  await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
  client.onclose = () => {
    if (!closing) options.onClose();
  };
  return {
    transport: kind,
    async listTools() {
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
        const result = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LaxToolList);
        tools.push(...(result.tools as ListedTool[]));
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    },
    async callTool(name, args, callOptions) {
      return (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
        signal: callOptions.signal,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        // Asking for progress is what lets a long-running tool keep the call alive past the timeout.
        onprogress: (progress) => {
          const checked = boundedProgress(progress);
          if (checked) callOptions.onProgress?.(checked);
        },
      })) as CallToolResultLike;
    },
    async ping() {
      await client.ping({ timeout: CONNECT_TIMEOUT_MS });
    },
    preflightExpiresAt,
    async close() {
      closing = true;
      await client.close().catch(() => undefined);
    },
  };
}

/** A progress notification as the UI may show it: finite numbers, a short message; anything else is dropped. */
function boundedProgress(progress: { progress: unknown; total?: unknown; message?: unknown }): ToolProgress | undefined {
  if (typeof progress.progress !== 'number' || !Number.isFinite(progress.progress)) return undefined;
  const bounded: ToolProgress = { progress: progress.progress };
  if (typeof progress.total === 'number' && Number.isFinite(progress.total)) bounded.total = progress.total;
  if (typeof progress.message === 'string' && progress.message.trim()) bounded.message = progress.message.trim().slice(0, 500);
  return bounded;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A fetch that adds the bearer token to requests for the server's own origin, and to nothing else. */
function tokenFetch(origin: string, token: string | undefined, base: typeof fetch): typeof fetch {
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (token && target.origin === origin) headers.set('Authorization', `Bearer ${token}`);
    else headers.delete('Authorization');
    return base(input, { ...init, headers });
  };
}

function classify(error: unknown): ConnectFailure {
  if (error instanceof UnauthorizedError) return { kind: 'unauthorized', status: 401 };
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const status = error.code ?? 0;
    if (status === 401 || status === 403) return { kind: 'unauthorized', status };
    if (status > 0) return { kind: 'http', status, detail: error.message };
    return { kind: 'protocol', detail: error.message };
  }
  if (error instanceof TypeError) return { kind: 'fetch_failed', detail: error.message };
  return { kind: 'protocol', detail: error instanceof Error ? error.message : String(error) };
}

import { createServer, request as httpRequest, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP servers that misbehave, and HTTP fronts for real ones, run in the test's own process (node 20 cannot run a
 * TypeScript file as a child). The misbehaving server uses the SDK's own server classes over Streamable HTTP.
 */

export interface LocalServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const PERMISSIVE_CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
  'access-control-expose-headers': 'mcp-session-id, www-authenticate',
};

/** The size of the `huge` tool's result. */
export const HUGE_RESULT_CHARACTERS = 5 * 1024 * 1024;

/**
 * A stateless MCP server with: `echo` (fine), `broken` and `nameless` (invalid tool schemas), `huge` (a 5 MB text result),
 * `die` (the server goes away mid-call: every socket destroyed, the port closed).
 */
export async function startMisbehavingServer(): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  let dead = false;
  const httpServer = createServer((incoming, response) => {
    if (dead) return void response.socket?.destroy();
    // Any origin may call it (the browser tests run Parley from another port).
    for (const [name, value] of Object.entries(PERMISSIVE_CORS)) response.setHeader(name, value);
    if (incoming.method === 'OPTIONS') return void response.writeHead(204).end();
    void handle(incoming, response);
  });
  httpServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const die = () => {
    dead = true;
    httpServer.close();
    for (const socket of sockets) socket.destroy();
  };

  async function handle(incoming: IncomingMessage, response: ServerResponse) {
    const server = new Server({ name: 'misbehaving', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'echo', description: 'Echoes the message.', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
        { name: 'broken', description: 'Has a schema that is not an object schema.', inputSchema: { type: 'string' } },
        { name: 'huge', description: 'Returns 5 MB of text.', inputSchema: { type: 'object', properties: {} } },
        { name: 'die', description: 'The server goes away during the call.', inputSchema: { type: 'object', properties: {} } },
      ] as never,
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      switch (call.params.name) {
        case 'echo':
          return { content: [{ type: 'text', text: `Echo: ${String(call.params.arguments?.message)}` }] };
        case 'huge':
          return { content: [{ type: 'text', text: 'x'.repeat(HUGE_RESULT_CHARACTERS) }] };
        case 'die':
          setTimeout(die, 50);
          return new Promise(() => undefined);
        default:
          return { content: [{ type: 'text', text: `No tool ${call.params.name}` }], isError: true };
      }
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(incoming, response);
  }

  const port = await listen(httpServer);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    stop: async () => {
      if (!dead) die();
    },
  };
}

/**
 * An old HTTP+SSE server whose `endpoint` event sends the client to another origin (127.0.0.2), where `foreign` records
 * every request it gets. Streamable HTTP is refused with 405, so clients fall back to SSE.
 */
export async function startForeignEndpointServer(): Promise<LocalServer & { foreignRequests: Array<{ authorization?: string }> }> {
  const foreignRequests: Array<{ authorization?: string }> = [];
  const foreign = createServer((incoming, response) => {
    foreignRequests.push(incoming.headers.authorization ? { authorization: incoming.headers.authorization } : {});
    response.writeHead(202).end();
  });
  const foreignPort = await new Promise<number>((resolve, reject) => {
    foreign.once('error', reject);
    foreign.listen(0, '127.0.0.2', () => resolve((foreign.address() as { port: number }).port));
  });
  const streams = new Set<ServerResponse>();
  const server = createServer((incoming, response) => {
    if (incoming.method !== 'GET') return void response.writeHead(405).end();
    streams.add(response);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(`event: endpoint\ndata: http://127.0.0.2:${foreignPort}/messages\n\n`);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/sse`,
    port,
    foreignRequests,
    stop: async () => {
      for (const stream of streams) stream.destroy();
      await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => foreign.close(resolve))]);
    },
  };
}

export interface ProxyOptions {
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
  /** False: no CORS headers at all (a server that does not allow the app's origin). Default true. */
  cors?: boolean;
  /** Receives each request body that passes through (JSON-RPC messages), to see what a client sent. */
  onBody?(body: string): void;
}

/** A JSON-RPC request the proxy forwarded: its method and, for `tools/call`, the tool and its arguments. */
export interface ForwardedCall {
  method: string;
  tool?: string;
  arguments?: unknown;
}

/** An HTTP front for a real MCP server: demands a bearer token, or withholds CORS. Streams both ways. */
export async function startProxy(targetUrl: string, options: ProxyOptions): Promise<LocalServer & { calls: ForwardedCall[]; holdCalls(): () => void }> {
  const calls: ForwardedCall[] = [];
  /** While set, `tools/call` requests wait for it before they are forwarded (see holdCalls). */
  let held: Promise<void> | undefined;
  const target = new URL(targetUrl);
  const cors = options.cors ?? true;
  const corsHeaders: Record<string, string> = cors ? PERMISSIVE_CORS : {};
  const sockets = new Set<Socket>();
  const httpServer = createServer((incoming, response) => {
    if (incoming.method === 'OPTIONS') {
      response.writeHead(204, corsHeaders).end();
      return;
    }
    if (options.token && incoming.headers.authorization !== `Bearer ${options.token}`) {
      response.writeHead(401, { ...corsHeaders, 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const headers = { ...incoming.headers, host: target.host };
    delete headers.authorization;
    delete headers.origin;
    // Requests are small JSON bodies (or none): read whole, recorded, then forwarded, so a test can count what ran.
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const callsBefore = calls.length;
      recordCalls(body, calls);
      if (body.length > 0) options.onBody?.(body.toString());
      const isCall = calls.slice(callsBefore).some((call) => call.method === 'tools/call');
      if (isCall && held) void held.then(forward);
      else forward();
    });
    function forward(): void {
      const body = Buffer.concat(chunks);
      const forwarded = httpRequest({ hostname: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...headers, 'content-length': String(body.length) } }, (upstream) => {
        const upstreamHeaders = Object.fromEntries(Object.entries(upstream.headers).filter(([name]) => !name.startsWith('access-control-')));
        response.writeHead(upstream.statusCode ?? 502, { ...upstreamHeaders, ...corsHeaders });
        upstream.pipe(response);
      });
      forwarded.on('error', () => response.destroy());
      forwarded.end(body);
    }
  });
  httpServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(httpServer);
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    port,
    calls,
    /** Holds every `tools/call` (received and recorded, not forwarded) until the returned function is called. */
    holdCalls() {
      let release = () => {};
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    stop: () =>
      new Promise((resolve) => {
        httpServer.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function recordCalls(body: Buffer, calls: ForwardedCall[]): void {
  if (body.length === 0) return;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
      if (typeof method !== 'string') continue;
      calls.push(method === 'tools/call' ? { method, tool: String(params?.name), arguments: params?.arguments } : { method });
    }
  } catch {
    // not JSON: nothing to record
  }
}

function listen(server: HttpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address === 'object' && address) resolve(address.port);
      else reject(new Error('no port'));
    });
  });
}

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/worker/mcp/mcp-hub';
import { McpCallError } from '../../src/worker/mcp/mcp-errors';
import { openParleyDatabase } from '../../src/worker/store/database';
import type { McpServerView } from '../../src/schema/mcp';
import { toolSpecs } from '../../src/core/tools/tools';
import type { Tool, ToolContext } from '../../src/core/tools/tool';
import { freePort, startEverythingServer, startMemoryGateway, type RunningServer } from '../server/mcp-processes';
import { HUGE_RESULT_CHARACTERS, startForeignEndpointServer, startMisbehavingServer, startProxy, type LocalServer } from '../server/mcp-test-servers';
import { uniqueDatabaseName } from './host-harness';

const stoppers: Array<() => Promise<void>> = [];
let everything: RunningServer;

beforeAll(async () => {
  everything = await startEverythingServer();
  stoppers.push(everything.stop);
}, 60_000);

afterAll(async () => {
  await Promise.all(stoppers.map((stop) => stop()));
});

async function track<T extends RunningServer | LocalServer>(server: Promise<T>): Promise<T> {
  const started = await server;
  stoppers.push(started.stop);
  return started;
}

async function withHub(body: (hub: McpHub, changes: McpServerView[][]) => Promise<void>): Promise<void> {
  const database = await openParleyDatabase(uniqueDatabaseName());
  const changes: McpServerView[][] = [];
  let counter = 0;
  const hub = new McpHub({ database, newId: () => `server-${(counter += 1)}`, onChange: (servers) => changes.push(servers) });
  try {
    await body(hub, changes);
  } finally {
    await hub.close();
    database.close();
  }
}

function context(): ToolContext {
  return { now: () => Date.now(), signal: new AbortController().signal };
}

function byName(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(', ')}`);
  return tool;
}

describe('McpHub with a stdio server behind supergateway', () => {
  it('lists and runs the memory server tools', async () => {
    const memory = await track(startMemoryGateway());
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'Memory', url: memory.url });
      expect((await hub.connect(saved.id)).status).toBe('connected');
      const tools = await hub.tools();
      const create = byName(tools, 'mcp__memory__create_entities');
      const created = await create.execute({ entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] }, context());
      expect(created.isError).toBeUndefined();
      const read = await byName(tools, 'mcp__memory__read_graph').execute({}, context());
      expect(read.text).toContain('wrote the first program');
    });
  }, 60_000);
});

describe('McpHub with servers that fail', () => {
  it('says a server is unreachable, in words', async () => {
    const port = await freePort();
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'Nowhere', url: `http://127.0.0.1:${port}/mcp` });
      const view = await hub.connect(saved.id);
      expect(view.status).toBe('error');
      expect(view.error).toEqual({ code: 'unreachable', message: `Cannot reach http://127.0.0.1:${port}/mcp. Check the URL, that the server is running, and your connection.` });
      expect(await hub.tools()).toEqual([]);
    });
  });

  it('says the server refused the token, and connects with the right one', async () => {
    const guarded = await track(startProxy(everything.url, { token: 'x' }));
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'Guarded', url: guarded.url });
      const refused = await hub.connect(saved.id);
      expect(refused.error?.code).toBe('unauthorized');
      expect(refused.error?.message).toContain('The server refused the token (HTTP 401)');
      const withToken = await hub.saveServer({ id: saved.id, name: 'Guarded', url: guarded.url, token: 'x' });
      expect(withToken.tokenMasked).toBe('••••');
      expect(JSON.stringify(await hub.listServers())).not.toContain('"x"');
      const connected = await hub.connect(saved.id);
      expect(connected.status).toBe('connected');
      expect((await byName(await hub.tools(), 'mcp__guarded__echo').execute({ message: 'through the proxy' }, context())).text).toBe('Echo: through the proxy');
    });
  }, 20_000);

  it('keeps a token only while the URL stays on the same origin', async () => {
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'S', url: 'http://127.0.0.1:9/mcp', token: 'secret-token-1234' });
      expect(saved.tokenMasked).toBe('••••1234');
      expect((await hub.saveServer({ id: saved.id, name: 'S', url: 'http://127.0.0.1:9/other' })).tokenMasked).toBe('••••1234');
      expect((await hub.saveServer({ id: saved.id, name: 'S', url: 'http://localhost:9/mcp' })).tokenMasked).toBe('');
    });
  });

  it('falls back to the HTTP+SSE transport when Streamable HTTP is refused with a 4xx', async () => {
    const sse = await track(startEverythingServer('sse'));
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'Old', url: sse.url });
      expect((await hub.connect(saved.id)).status).toBe('connected');
      expect((await byName(await hub.tools(), 'mcp__old__echo').execute({ message: 'over sse' }, context())).text).toBe('Echo: over sse');
    });
  }, 30_000);

  it('refuses an SSE endpoint on another origin, and the token never goes there', async () => {
    const sneaky = await track(startForeignEndpointServer());
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'Sneaky', url: sneaky.url, token: 'secret-token-1234' });
      const view = await hub.connect(saved.id);
      expect(view.status).toBe('error');
      expect(view.error?.code).toBe('protocol');
      expect(view.error?.message).toContain('Endpoint origin does not match connection origin: http://127.0.0.2');
      expect(sneaky.foreignRequests).toEqual([]);
    });
  });

  it('leaves out a tool with an invalid schema and says so; truncates a 5 MB result with a note; rejects when the server dies mid-call', async () => {
    const bad = await track(startMisbehavingServer());
    await withHub(async (hub) => {
      const saved = await hub.saveServer({ name: 'Bad', url: bad.url });
      const view = await hub.connect(saved.id);
      expect(view.status).toBe('connected');
      expect(view.tools.map((tool) => tool.name)).toEqual(['mcp__bad__echo', 'mcp__bad__huge', 'mcp__bad__die']);
      expect(view.error).toEqual({ code: 'invalid_tools', message: 'The tool "broken" has an invalid input schema (it must be a JSON Schema of type "object"); it is not offered to the model.' });

      const tools = await hub.tools();
      const echo = byName(tools, 'mcp__bad__echo');
      expect(echo.check({})).toEqual({ ok: false, error: 'Invalid arguments: field `message` is required but missing. Please rewrite the input so it satisfies the expected schema.' });

      const huge = await byName(tools, 'mcp__bad__huge').execute({}, context());
      expect(huge.text).toHaveLength(50_000 + `\n\n[truncated: showed 50000 of ${HUGE_RESULT_CHARACTERS} characters]`.length);
      expect(huge.text.endsWith(`[truncated: showed 50000 of ${HUGE_RESULT_CHARACTERS} characters]`)).toBe(true);

      const dying = byName(tools, 'mcp__bad__die').execute({}, context());
      await expect(dying).rejects.toBeInstanceOf(McpCallError);
      await expect(dying).rejects.toThrow(/The MCP server "Bad" went away during the call to die .*The tool may or may not have run\./);
      // Gone for good: the next call fails clearly instead of hanging.
      await expect(echo.execute({ message: 'anyone?' }, context())).rejects.toThrow(/Bad/);
    });
  }, 30_000);

  it('persists servers and permissions; "never" hides a tool from the model', async () => {
    await withHub(async (hub, changes) => {
      const saved = await hub.saveServer({ name: 'Everything', url: everything.url });
      await hub.connect(saved.id);
      await hub.setPermission(saved.id, 'mcp__everything__echo', 'never');
      await hub.setPermission(saved.id, 'mcp__everything__get-sum', 'allow');
      const tools = await hub.tools();
      expect(byName(tools, 'mcp__everything__echo').permission).toBe('never');
      expect(toolSpecs(tools).map((tool) => tool.name)).not.toContain('mcp__everything__echo');
      expect(byName(tools, 'mcp__everything__get-sum').permission).toBe('allow');
      const views = await hub.listServers();
      expect(views[0]?.tools.find((tool) => tool.name === 'mcp__everything__echo')?.permission).toBe('never');
      expect(changes.at(-1)?.[0]?.tools.find((tool) => tool.name === 'mcp__everything__get-sum')?.permission).toBe('allow');
      await hub.removeServer(saved.id);
      expect(await hub.listServers()).toEqual([]);
      expect(await hub.tools()).toEqual([]);
    });
  }, 20_000);

  it('drops a connection when another tab edits the server, and reconnects to the new URL when tools are needed', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const [here, there] = [0, 1].map((index) => new McpHub({ database, newId: () => `server-${index}`, onChange: () => undefined }));
    try {
      const saved = await here!.saveServer({ name: 'Everything', url: everything.url });
      expect((await here!.connect(saved.id)).status).toBe('connected');
      const port = await freePort();
      await there!.saveServer({ id: saved.id, name: 'Everything', url: `http://127.0.0.1:${port}/mcp` });
      const reloaded = await here!.reload();
      expect(reloaded[0]).toMatchObject({ url: `http://127.0.0.1:${port}/mcp`, status: 'disconnected', tools: [] });
      expect(await here!.tools()).toEqual([]);
      expect((await here!.listServers())[0]?.error?.code).toBe('unreachable');
    } finally {
      await here!.close();
      await there!.close();
      database.close();
    }
  }, 20_000);

  it('refuses a second server whose name makes the same tool names', async () => {
    await withHub(async (hub) => {
      await hub.saveServer({ name: 'My Server', url: 'http://127.0.0.1:9/mcp' });
      await expect(hub.saveServer({ name: 'my_server', url: 'http://127.0.0.1:9/mcp' })).rejects.toMatchObject({ code: 'invalid_command', field: 'server.name' });
      await expect(hub.saveServer({ name: 'Files', url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'invalid_command', field: 'server.url' });
    });
  });
});

describe('a server that never answers', () => {
  it('holds a model step only briefly: its tools are left out of that step and it stays shown as connecting; the next step does not wait again', async () => {
    // A real HTTP server that accepts every request and never answers it.
    const sockets = new Set<import('node:net').Socket>();
    const silent = (await import('node:http')).createServer(() => undefined);
    silent.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    stoppers.push(() => new Promise((resolve) => {
      silent.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }));
    const port = (silent.address() as import('node:net').AddressInfo).port;
    const database = await openParleyDatabase(uniqueDatabaseName());
    let counter = 0;
    const hub = new McpHub({ database, newId: () => `server-${(counter += 1)}`, onChange: () => undefined, connectWaitMs: 200 });
    try {
      const { id } = await hub.saveServer({ name: 'Everything', url: everything.url });
      expect((await hub.connect(id)).status).toBe('connected');
      await hub.saveServer({ name: 'Silent', url: `http://127.0.0.1:${port}/mcp` });
      // Without a bound this waits for the silent server's connection for as long as the transport does.
      const tools = await hub.tools();
      expect(tools.some((tool) => tool.source?.serverName === 'Everything')).toBe(true);
      expect(tools.some((tool) => tool.source?.serverName === 'Silent')).toBe(false);
      expect((await hub.listServers()).find((server) => server.name === 'Silent')?.status).toBe('connecting');
      expect((await hub.tools()).some((tool) => tool.source?.serverName === 'Everything')).toBe(true);
    } finally {
      await hub.close();
      database.close();
    }
  });
});

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/worker/mcp/mcp-hub';
import { openParleyDatabase, type ParleyDatabase } from '../../src/worker/store/database';
import type { McpServerView } from '../../src/schema/mcp';
import type { ElicitationRequest, Tool, ToolContext } from '../../src/core/tools/tool';
import { describeFlatForm } from '../../src/core/requests/json-schema-form';
import { startEverythingServer, type RunningServer } from '../server/mcp-processes';
import { startProxy } from '../server/mcp-test-servers';
import { uniqueDatabaseName } from './host-harness';

let everything: RunningServer;

beforeAll(async () => {
  everything = await startEverythingServer();
}, 60_000);

afterAll(async () => {
  await everything?.stop();
});

interface TestHub {
  hub: McpHub;
  database: ParleyDatabase;
  changes: McpServerView[][];
}

async function openHub(): Promise<TestHub> {
  const database = await openParleyDatabase(uniqueDatabaseName());
  const changes: McpServerView[][] = [];
  let counter = 0;
  const hub = new McpHub({ database, newId: () => `server-${(counter += 1)}`, onChange: (servers) => changes.push(servers) });
  return { hub, database, changes };
}

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return { now: () => Date.now(), signal: new AbortController().signal, ...overrides };
}

function byName(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.map((candidate) => candidate.name).join(', ')}`);
  return tool;
}

describe('McpHub against server-everything', () => {
  it('connects, lists the tools with model-facing names, and runs echo and get-sum', async () => {
    const { hub, database } = await openHub();
    try {
      const saved = await hub.saveServer({ name: 'Everything', url: everything.url });
      const view = await hub.connect(saved.id);
      expect(view.status).toBe('connected');
      expect(view.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
      const tools = await hub.tools();
      const echo = byName(tools, 'mcp__everything__echo');
      expect(echo.permission).toBe('ask');
      expect(echo.source).toMatchObject({ kind: 'mcp', serverId: saved.id, serverName: 'Everything', toolName: 'echo' });
      expect(await echo.execute({ message: 'hello there' }, context())).toEqual({ text: 'Echo: hello there' });
      const sum = await byName(tools, 'mcp__everything__get-sum').execute({ a: 2, b: 40 }, context());
      expect(sum.text).toContain('42');
      expect(sum.isError).toBeUndefined();
    } finally {
      await hub.close();
      database.close();
    }
  });
});

describe('McpHub tool calls on server-everything', () => {
  it('Stop cancels a long-running call (MCP cancellation) and rejects with the abort reason', async () => {
    const { hub, database } = await openHub();
    const bodies: string[] = [];
    const watched = await startProxy(everything.url, { onBody: (body) => bodies.push(body) });
    try {
      await hub.saveServer({ name: 'Everything', url: watched.url });
      const long = byName(await hub.tools(), 'mcp__everything__trigger-long-running-operation');
      expect(long.source?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      const controller = new AbortController();
      const running = long.execute({ duration: 30, steps: 30 }, context({ signal: controller.signal }));
      setTimeout(() => controller.abort(new DOMException('Stopped by the user', 'AbortError')), 300);
      await expect(running).rejects.toMatchObject({ name: 'AbortError', message: 'Stopped by the user' });
      // The server was told: a notifications/cancelled for the tools/call request went out.
      const call = bodies.map((body) => JSON.parse(body) as { id?: number; method?: string; params?: { name?: string; requestId?: number } }).find((message) => message.method === 'tools/call' && message.params?.name === 'trigger-long-running-operation');
      await expect.poll(() => bodies.some((body) => body.includes('"notifications/cancelled"') && body.includes(`"requestId":${call?.id}`))).toBe(true);
      // The connection is still good after a cancellation.
      const echo = byName(await hub.tools(), 'mcp__everything__echo');
      expect((await echo.execute({ message: 'still here' }, context())).text).toBe('Echo: still here');
    } finally {
      await watched.stop();
      await hub.close();
      database.close();
    }
  }, 20_000);

  it('routes an elicitation request to the context of the call in flight, and returns the answer checked', async () => {
    const { hub, database } = await openHub();
    try {
      await hub.saveServer({ name: 'Everything', url: everything.url });
      const tool = byName(await hub.tools(), 'mcp__everything__trigger-elicitation-request');
      const requests: unknown[] = [];
      const accepted = await tool.execute(
        {},
        context({
          elicit: async (request) => {
            requests.push(request);
            return { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7, untitledMultipleSelectEnum: ['Piano'] } };
          },
        }),
      );
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ message: 'Please provide inputs for the following fields:', requestedSchema: { type: 'object' } });
      // The form the user will see: every field of server-everything's request is one a flat form can render.
      const fields = describeFlatForm((requests[0] as ElicitationRequest).requestedSchema);
      expect(fields?.find((field) => field.name === 'name')).toMatchObject({ title: 'String', kind: 'string' });
      expect(fields?.find((field) => field.name === 'titledMultipleSelectEnum')).toMatchObject({ kind: 'multi-enum', options: [{ value: 'fish-1', label: 'Tuna' }, { value: 'fish-2', label: 'Salmon' }, { value: 'fish-3', label: 'Trout' }] });
      expect(fields?.find((field) => field.name === 'integer')).toMatchObject({ kind: 'integer', minimum: 1, maximum: 100, default: 42 });
      expect(accepted.text).toContain('Ada Lovelace');

      const declined = await tool.execute({}, context({ elicit: async () => ({ action: 'decline' }) }));
      expect(declined.text).toMatch(/declined/i);
      const cancelled = await tool.execute({}, context({ elicit: async () => ({ action: 'cancel' }) }));
      expect(cancelled.text).toMatch(/cancelled/i);
      // Nobody to ask: the hub declines on the user's behalf.
      const nobody = await tool.execute({}, context());
      expect(nobody.text).toMatch(/declined/i);
    } finally {
      await hub.close();
      database.close();
    }
  }, 20_000);

  it('refuses an accepted elicitation answer that fails the requested schema (the server gets an error, not bad data)', async () => {
    const { hub, database } = await openHub();
    try {
      await hub.saveServer({ name: 'Everything', url: everything.url });
      const tool = byName(await hub.tools(), 'mcp__everything__trigger-elicitation-request');
      const result = await tool.execute({}, context({ elicit: async () => ({ action: 'accept', content: { integer: 500 } }) }));
      expect(result.isError).toBe(true);
      expect(result.text).toContain('must be at most 100');
    } finally {
      await hub.close();
      database.close();
    }
  }, 20_000);
});

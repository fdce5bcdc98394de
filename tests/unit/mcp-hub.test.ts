import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/worker/mcp/mcp-hub';
import { openParleyDatabase, type ParleyDatabase } from '../../src/worker/database';
import type { McpServerView } from '../../src/schema/mcp';
import type { Tool, ToolContext } from '../../src/core/tool';
import { startEverythingServer, type RunningServer } from '../server/mcp-processes';
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

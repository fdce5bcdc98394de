import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/worker/mcp/mcp-hub';
import { openMcpConnection, type McpConnection } from '../../src/worker/mcp/mcp-connection';
import { openParleyDatabase, type ParleyDatabase } from '../../src/worker/store/database';
import { startEverythingServer, type RunningServer } from '../server/mcp-processes';
import { startProxy } from '../server/mcp-test-servers';
import { uniqueDatabaseName } from './host-harness';

// An approval on screen readies its server's connection (McpHub.prepareCall): the Allow's `tools/call` then finds the
// browser's CORS preflight cached instead of waiting for one.

let everything: RunningServer;

beforeAll(async () => {
  everything = await startEverythingServer();
}, 60_000);

afterAll(async () => {
  await everything?.stop();
});

/** A connection whose preflight clock the test sets; `ping` counts and, like a real request, restarts the clock. */
function fakeConnection(expiresAt: number) {
  const state = { expiresAt, pings: 0 };
  const connection: McpConnection = {
    transport: 'streamable-http',
    listTools: async () => [{ name: 'echo', inputSchema: { type: 'object' } }],
    callTool: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    ping: async () => {
      state.pings += 1;
      state.expiresAt = Date.now() + 60_000;
    },
    preflightExpiresAt: () => state.expiresAt,
    close: async () => undefined,
  };
  return { state, connection };
}

async function hubOver(database: ParleyDatabase, connection: McpConnection) {
  let opened = 0;
  const hub = new McpHub({
    database,
    newId: () => 'server-1',
    onChange: () => undefined,
    loadConnector: async () => async () => ((opened += 1), connection),
  });
  return { hub, opened: () => opened };
}

describe('McpHub.prepareCall', () => {
  it('connects a server not connected here (as the call would first), and pings one whose preflight has expired', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const fake = fakeConnection(Date.now() - 1);
    const saving = await hubOver(database, fake.connection);
    const saved = await saving.hub.saveServer({ name: 'Files', url: 'http://files.test/mcp' });
    await saving.hub.close();
    // This tab's hub: the server stored, never connected here.
    const { hub, opened } = await hubOver(database, fake.connection);
    try {
      expect(await hub.prepareCall(saved.id)).toBe(true);
      expect(opened()).toBe(1);
      expect(fake.state.pings).toBe(0);
      expect(await hub.prepareCall(saved.id)).toBe(true);
      await expect.poll(() => fake.state.pings).toBe(1);
      expect(await hub.prepareCall('no-such-server')).toBe(false);
    } finally {
      await hub.close();
      database.close();
    }
  });

  it('against server-everything: the server receives a ping, and a call after it runs', async () => {
    const watched = await startProxy(everything.url, {});
    const database = await openParleyDatabase(uniqueDatabaseName());
    const hub = new McpHub({ database, newId: () => 'server-1', onChange: () => undefined });
    try {
      const saved = await hub.saveServer({ name: 'Everything', url: watched.url });
      expect((await hub.connect(saved.id)).status).toBe('connected');
      expect(await hub.prepareCall(saved.id)).toBe(true);
      // Once the connection's own preflight (its handshake's, within the last 5 s) has expired.
      await expect.poll(() => watched.calls.some((call) => call.method === 'ping'), { timeout: 15_000 }).toBe(true);
      const echo = (await hub.tools()).find((tool) => tool.name === 'mcp__everything__echo')!;
      expect(await echo.execute({ message: 'after' }, { now: () => Date.now(), signal: new AbortController().signal })).toEqual({ text: 'Echo: after' });
    } finally {
      await hub.close();
      database.close();
      await watched.stop();
    }
  }, 30_000);

  it("a connection's preflight clock starts with its handshake's POSTs, and a POST after it expired restarts it", async () => {
    const before = Date.now();
    const connection = await openMcpConnection({ url: everything.url, onClose: () => undefined, onElicit: () => undefined, clientVersion: 'test' });
    try {
      const afterHandshake = Date.now();
      expect(connection.preflightExpiresAt()).toBeGreaterThanOrEqual(before + 5_000);
      expect(connection.preflightExpiresAt()).toBeLessThanOrEqual(afterHandshake + 5_000);
      await connection.ping();
      // Sent while it held: no new preflight, the clock stays.
      expect(connection.preflightExpiresAt()).toBeLessThanOrEqual(afterHandshake + 5_000);
    } finally {
      await connection.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLocks } from '../../src/worker/runs/locks';
import { readPeerMessage } from '../../src/worker/tabs/peer-channel';
import { openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import type { ToolCallBlock } from '../../src/schema/messages/blocks';
import { startEverythingServer, type RunningServer } from '../server/mcp-processes';

let everything: RunningServer;

beforeAll(async () => {
  everything = await startEverythingServer();
}, 60_000);

afterAll(async () => {
  await everything?.stop();
});

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never saw ${what}`);
}

describe('mcp.* commands through the host', () => {
  it('save, connect, set a permission, remove: events for this tab, hints for the others, the token never leaves', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const peers: TestTab[] = [];
    const first = await openTab({ databaseName, locks, peers });
    const second = await openTab({ databaseName, locks });
    peers.push(second);
    try {
      const saved = await first.send({ type: 'mcp.save', server: { name: 'Everything', url: everything.url, token: 'very-secret-token' } });
      expect(saved).toMatchObject({ name: 'Everything', tokenMasked: '••••oken' });
      const connected = await first.send({ type: 'mcp.connect', serverId: saved.id });
      expect(connected.status).toBe('connected');
      await first.send({ type: 'mcp.setPermission', serverId: saved.id, toolName: 'mcp__everything__echo', permission: 'allow' });

      // This tab's UI hears every change as a whole list.
      const last = first.events.findLast((event) => event.type === 'mcp-servers-changed');
      const servers = last?.type === 'mcp-servers-changed' ? last.servers : [];
      expect(servers[0]?.status).toBe('connected');
      expect(servers[0]?.tools.find((tool) => tool.name === 'mcp__everything__echo')?.permission).toBe('allow');

      // The other tab re-read what is stored (its own connection is not open yet).
      const seen = await waitFor(() => second.events.findLast((event) => event.type === 'mcp-servers-changed'), 'the peer’s event');
      expect(seen.type === 'mcp-servers-changed' && seen.servers[0]?.name).toBe('Everything');

      const visible = JSON.stringify([first.events, second.events, await first.send({ type: 'mcp.list' }), await first.send({ type: 'conversation.export' })]);
      expect(visible).not.toContain('very-secret-token');

      await first.send({ type: 'mcp.remove', serverId: saved.id });
      expect(await second.send({ type: 'mcp.list' })).toEqual([]);
      await expect(first.send({ type: 'mcp.connect', serverId: saved.id })).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await first.host.mcp.close();
      await second.host.mcp.close();
      first.close();
      second.close();
    }
  }, 20_000);

  it('refuses malformed mcp commands before touching anything', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    try {
      await expect(tab.send({ type: 'mcp.setPermission', serverId: 's', toolName: 't', permission: 'sometimes' as never })).rejects.toMatchObject({ code: 'invalid_command', field: 'permission' });
      await expect(tab.send({ type: 'mcp.save', server: { name: '', url: 'http://x' } })).rejects.toMatchObject({ code: 'invalid_command' });
    } finally {
      tab.close();
    }
  });

  it('accepts the mcp peer hint and nothing forged around it', () => {
    expect(readPeerMessage({ kind: 'hint', hint: { kind: 'mcp' } })).toEqual({ kind: 'hint', hint: { kind: 'mcp' } });
    expect(readPeerMessage({ kind: 'hint', hint: { kind: 'mcp', servers: [{ token: 'x' }] } })).toEqual({ kind: 'hint', hint: { kind: 'mcp' } });
  });

  it('a long tool\'s progress reaches this tab\'s UI as throttled events and is never stored; a "Never" tool is refused in words', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    try {
      const saved = await tab.send({ type: 'mcp.save', server: { name: 'everything', url: everything.url } });
      await tab.send({ type: 'mcp.connect', serverId: saved.id });
      await tab.send({ type: 'mcp.setPermission', serverId: saved.id, toolName: 'mcp__everything__trigger-long-running-operation', permission: 'allow' });
      await tab.send({ type: 'mcp.setPermission', serverId: saved.id, toolName: 'mcp__everything__echo', permission: 'never' });
      const steps = [
        { text: 'Working.', toolCalls: [{ name: 'mcp__everything__trigger-long-running-operation', args: { duration: 0.4, steps: 4 } }] },
        { text: 'Echoing.', toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'x' } }] },
        { text: 'Saw: {{lastToolResult}}' },
      ];
      await tab.send({ type: 'settings.update', script: script(steps) });
      const { id: conversationId } = await tab.send({ type: 'conversation.create' });
      await tab.send({ type: 'message.send', conversationId, text: 'go' });
      await waitForRunState(tab, conversationId, ['idle'], 15_000);

      const progress = tab.events.flatMap((event) => (event.type === 'tool-progress' ? [event] : []));
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((event) => event.conversationId === conversationId && event.progress.total === 4)).toBe(true);
      expect(progress.map((event) => event.progress.progress)).toEqual([...progress.map((event) => event.progress.progress)].sort());

      const { messages } = await tab.send({ type: 'conversation.open', conversationId });
      const calls = messages.flatMap((message) => message.blocks).filter((block): block is ToolCallBlock => block.type === 'tool_call');
      expect(calls[0]).toMatchObject({ status: 'success', result: expect.stringContaining('Long running operation completed') });
      expect(JSON.stringify(messages)).not.toContain('"progress"');
      expect(calls[1]).toMatchObject({ status: 'denied', source: { serverName: 'everything', toolName: 'echo' } });
      expect(calls[1]?.result).toMatch(/^Not run: the user set mcp__everything__echo to "Never"/);
    } finally {
      await tab.host.mcp.close();
      tab.close();
    }
  }, 30_000);
});

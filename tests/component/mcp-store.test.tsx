import { describe, expect, it } from 'vitest';
import { AppEvent } from '../../src/schema/events';
import type { McpServerView } from '../../src/schema/mcp';
import { applyEvent, createInitialState } from '../../src/ui/state/store';

const server: McpServerView = {
  id: 's1',
  name: 'Everything',
  url: 'http://127.0.0.1:3001/mcp',
  tokenMasked: '',
  status: 'connected',
  tools: [{ name: 'mcp__everything__echo', serverToolName: 'echo', description: 'Echoes', permission: 'ask', inputSchema: { type: 'object' } }],
};

describe('mcp-servers-changed in the UI store', () => {
  it('replaces the whole list, and the event passes the wire schema', () => {
    const state = createInitialState();
    expect(state.mcpServers).toEqual([]);
    const event = AppEvent.parse({ type: 'mcp-servers-changed', servers: [server] });
    applyEvent(state, event);
    expect(state.mcpServers).toEqual([server]);
    applyEvent(state, { type: 'mcp-servers-changed', servers: [] });
    expect(state.mcpServers).toEqual([]);
  });

  it('refuses a malformed server view (a status that does not exist)', () => {
    const parsed = AppEvent.safeParse({ type: 'mcp-servers-changed', servers: [{ ...server, status: 'sideways' }] });
    expect(parsed.success).toBe(false);
  });
});

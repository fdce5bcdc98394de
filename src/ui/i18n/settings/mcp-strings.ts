
/** Settings → MCP servers. The English accessible names are part of the UI contract (README, e2e specs). */
const mcpEn = {
  'mcp.title': 'MCP servers',
  'mcp.intro': 'Tools from Model Context Protocol servers. Parley reaches them over HTTP from this browser; a server must allow this app’s origin (CORS). A stdio server can be exposed with a gateway such as supergateway --cors.',
  'mcp.add': 'Add MCP server',
  'mcp.name': 'Server name',
  'mcp.url': 'Server URL',
  'mcp.token': 'Bearer token',
  'mcp.tokenHint': 'Optional. Stored only in this browser and sent only to this server; never exported.',
  'mcp.connect': 'Connect',
  'mcp.reconnect': 'Reconnect',
  'mcp.reconnectServer': 'Reconnect {name}',
  'mcp.editServer': 'Edit {name}',
  'mcp.remove': 'Remove',
  'mcp.removeServer': 'Remove {name}',
  'mcp.removeTitle': 'Remove this MCP server?',
  'mcp.removeBody': 'The server “{name}”, its stored token and its tool permissions will be removed. Conversations keep the record of what its tools did.',
  'mcp.toolsOf': 'Tools of {name}',
  'mcp.status.connected': 'Connected — {count} tools',
  'mcp.status.connectedOne': 'Connected — 1 tool',
  'mcp.status.connecting': 'Connecting…',
  'mcp.status.disconnected': 'Not connected yet: Parley connects when a conversation needs its tools.',
  'mcp.status.error': 'Not connected. {message}',
  'mcp.hint.readOnly': 'Read-only',
  'mcp.hint.destructive': 'Destructive',
  'mcp.hint.openWorld': 'Open world',
  'mcp.permission.ask': 'Ask every time',
  'mcp.permission.allow': 'Always allow',
  'mcp.permission.never': 'Never',
};

export const mcpStrings = { en: mcpEn };

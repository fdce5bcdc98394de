/**
 * Model-facing names of MCP tools: `mcp__<server>__<tool>`, as Claude Code names them. Providers accept at most 64
 * characters matching ^[a-zA-Z0-9_-]+$, so a longer name is cut and given a short hash of the full one to stay unique.
 */

export const MCP_PREFIX = 'mcp__';
const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 6;

/**
 * A server name as it appears in tool names: lower-cased, other characters `_`, and no `_` doubled or at either end, so
 * the first `__` of a tool name always ends the server part.
 */
export function normalizeServerName(serverName: string): string {
  const normalized = serverName.toLowerCase().replace(/[^a-z0-9_-]/g, '_').replace(/_{2,}/g, '_').replace(/^_|_$/g, '');
  return normalized === '' ? 'server' : normalized;
}

/** `mcp__<server>__<tool>`, valid for every provider and at most 64 characters. */
export function mcpToolName(serverName: string, toolName: string): string {
  const server = normalizeServerName(serverName);
  const tool = toolName.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  const full = `${MCP_PREFIX}${server}__${tool}`;
  if (full.length <= MAX_NAME_LENGTH) return full;
  const suffix = `_${shortHash(`${serverName}\u0000${toolName}`)}`;
  const shortServer = server.slice(0, 20).replace(/_$/, '');
  const room = MAX_NAME_LENGTH - MCP_PREFIX.length - shortServer.length - 2 - suffix.length;
  return `${MCP_PREFIX}${shortServer}__${tool.slice(0, room)}${suffix}`;
}

/** The same name with a hash of `key` appended (within 64 characters): for two tools whose names normalise alike. */
export function disambiguate(name: string, key: string): string {
  const suffix = `_${shortHash(key)}`;
  return `${name.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** Whether a model's tool name claims to be an MCP tool (it may still name no tool, or be malformed). */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_PREFIX);
}

/**
 * The normalised server and tool parts of a model-facing name; undefined for a malformed one (no `__` after the server,
 * an empty part, characters providers refuse). The hub maps names to tools by lookup, not by parsing: this is for errors.
 */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!isMcpToolName(name) || name.length > MAX_NAME_LENGTH || !/^[A-Za-z0-9_-]+$/.test(name)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  const separator = rest.indexOf('__');
  if (separator <= 0) return undefined;
  const server = rest.slice(0, separator);
  const tool = rest.slice(separator + 2);
  if (tool === '' || server !== normalizeServerName(server)) return undefined;
  return { server, tool };
}

/**
 * What the model reads when it calls an MCP tool that does not exist: why (malformed, unknown server, unknown tool),
 * and the MCP tools it may call.
 */
export function unknownMcpToolText(name: string, availableNames: readonly string[]): string {
  const parsed = parseMcpToolName(name);
  const available = availableNames.filter(isMcpToolName);
  const list = available.length > 0 ? `The MCP tools available are: ${available.join(', ')}.` : 'No MCP tools are available now.';
  if (!parsed) return `"${name}" is not a valid MCP tool name (they look like mcp__<server>__<tool>). ${list}`;
  const serverKnown = available.some((candidate) => parseMcpToolName(candidate)?.server === parsed.server);
  const reason = serverKnown ? `The MCP server "${parsed.server}" has no tool "${parsed.tool}" that you may call.` : `There is no connected MCP server "${parsed.server}".`;
  return `${reason} ${list}`;
}

/** FNV-1a, 32 bits, in base 36: short, stable, no crypto needed (uniqueness among one user's tools). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(HASH_LENGTH, '0').slice(-HASH_LENGTH);
}

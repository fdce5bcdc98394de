// An MCP server's tool as a `Tool` of the agent loop, and one call of it on the server's connection (mcp-hub.ts connects).
import { checkArguments, isPlainObject } from '../../core/requests/json-schema-form';
import type { Tool, ToolContext, ToolOutput } from '../../core/tools/tool';
import type { ServerTool } from './listed-tools';
import type { McpConnection } from './mcp-connection';
import { isJsonRpcError, McpCallError } from './mcp-errors';
import type { StoredMcpServer } from './mcp-server-store';
import type { InFlightCall, ServerState } from './server-state';
import { toToolOutput } from './tool-result';

/** `tool` of `server` for the agent loop, with the permission the user gave it; `execute` runs it on the server. */
export function mcpTool(server: StoredMcpServer, tool: ServerTool, execute: Tool['execute']): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    permission: server.permissions[tool.name] ?? 'ask',
    source: {
      kind: 'mcp',
      serverId: server.id,
      serverName: server.name,
      toolName: tool.serverToolName,
      origin: new URL(server.url).origin,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    },
    check: (args) => checkArguments(tool.inputSchema, args),
    execute,
  };
}

/**
 * Calls `tool` on a server's open `connection`, routing elicitation requests meanwhile to this call's context. A result
 * (even `isError`, or the server refusing the call) resolves; a lost connection rejects with McpCallError; Stop rejects
 * with the abort reason.
 */
export async function callOnConnection(connection: McpConnection, state: ServerState, serverName: string, tool: ServerTool, args: unknown, context: ToolContext): Promise<ToolOutput> {
  const call: InFlightCall = context.elicit ? { elicit: context.elicit.bind(context) } : {};
  state.inFlight.push(call);
  try {
    const progress = context.reportProgress?.bind(context);
    const result = await connection.callTool(tool.serverToolName, isPlainObject(args) ? args : {}, { signal: context.signal, ...(progress ? { onProgress: progress } : {}) });
    return toToolOutput(result);
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason ?? error;
    const message = error instanceof Error ? error.message : String(error);
    // A JSON-RPC error answer is the server speaking (unknown tool, bad arguments): the model can act on it.
    if (isJsonRpcError(error)) return { text: `The MCP server "${serverName}" refused the call: ${message}`, isError: true };
    throw new McpCallError(`The MCP server "${serverName}" went away during the call to ${tool.serverToolName} (${message}). The tool may or may not have run.`, { cause: error });
  } finally {
    state.inFlight.splice(state.inFlight.indexOf(call), 1);
  }
}

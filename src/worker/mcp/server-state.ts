import type { ToolContext } from '../../core/tools/tool';
import type { McpServerView, McpToolView } from '../../schema/mcp';
import { maskKey } from '../settings/settings-store';
import type { ServerTool } from './listed-tools';
import type { McpConnection } from './mcp-connection';
import type { StoredMcpServer } from './mcp-server-store';

/** What this tab knows of a server's connection: its status, the last failure, the tools it listed. */
interface ConnectionFacts {
  status: McpServerView['status'];
  error?: McpServerView['error'];
  tools: ServerTool[];
}

/** A tool call in flight: where an elicitation request that arrives meanwhile is routed. */
export interface InFlightCall {
  elicit?: ToolContext['elicit'];
}

/** This tab's connection to one server, as the hub keeps it. */
export interface ServerState extends ConnectionFacts {
  connection?: McpConnection;
  connecting?: Promise<void>;
  /** When the attempt in `connecting` began (a model step waits for it only so long). */
  connectingSince?: number;
  failedAt?: number;
  /** Bumped by each connect and disconnect: a late result of an older attempt is dropped. */
  generation: number;
  inFlight: InFlightCall[];
  /** URL and token the connection was made with: an edit of either reconnects. */
  connectedWith?: string;
  /** Until when an approval on screen asks for the connection to be kept ready (see McpHub.prepareCall). */
  preparedUntil?: number;
  /** Whether McpHub.keepPrepared is pinging it. */
  preparing?: boolean;
}

/** A server as Settings shows it: its stored configuration (the token masked) and this tab's connection to it. */
export function serverView(server: StoredMcpServer, state: ConnectionFacts | undefined): McpServerView {
  const tools: McpToolView[] = (state?.tools ?? []).map((tool) => ({
    name: tool.name,
    serverToolName: tool.serverToolName,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    permission: server.permissions[tool.name] ?? 'ask',
    inputSchema: tool.inputSchema,
  }));
  return {
    id: server.id,
    name: server.name,
    url: server.url,
    tokenMasked: maskKey(server.token ?? ''),
    status: state?.status ?? 'disconnected',
    ...(state?.error ? { error: state.error } : {}),
    tools,
  };
}

/** A connection attempt, waited for until `waitMs` after it began (not at all when it began longer ago). */
export async function waitBriefly(state: ServerState, now: number, waitMs: number): Promise<void> {
  const attempt = state.connecting;
  if (!attempt) return;
  const left = (state.connectingSince ?? now) + waitMs - now;
  if (left <= 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([attempt, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
  clearTimeout(timer);
}

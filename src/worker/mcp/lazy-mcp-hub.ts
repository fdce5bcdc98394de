import type { Tool } from '../../core/tools/tool';
import type { McpServerInput, McpServerView, ToolPermission } from '../../schema/mcp';
import type { StoredConfig } from '../settings/stored-config';
import type { McpHub, McpHubOptions } from './mcp-hub';

/** What the rest of the worker uses of the MCP servers (the hub's public methods). */
export type McpServers = Pick<McpHub, 'listServers' | 'saveServer' | 'removeServer' | 'applySynced' | 'connect' | 'setPermission' | 'prepareCall' | 'tools' | 'reload' | 'close'>;

/**
 * The MCP hub, its code loaded when first needed: a command about servers, a change from another tab or device, or a
 * model step while a server is stored. A conversation with no server stored never loads it (the hub has no connection
 * and no tools then), so a first conversation's worker fetches none of the MCP code.
 */
export class LazyMcpHub implements McpServers {
  private hub: Promise<McpHub> | undefined;

  constructor(private readonly options: McpHubOptions & { config: StoredConfig }) {}

  private loaded(): Promise<McpHub> {
    return (this.hub ??= import('./mcp-hub').then(({ McpHub }) => new McpHub(this.options)).catch((error: unknown) => {
      this.hub = undefined;
      throw error;
    }));
  }

  listServers(): Promise<McpServerView[]> {
    return this.loaded().then((hub) => hub.listServers());
  }

  saveServer(input: McpServerInput): Promise<McpServerView> {
    return this.loaded().then((hub) => hub.saveServer(input));
  }

  removeServer(serverId: string): Promise<void> {
    return this.loaded().then((hub) => hub.removeServer(serverId));
  }

  applySynced(serverId: string, value: { name: string; url: string } | undefined): Promise<void> {
    return this.loaded().then((hub) => hub.applySynced(serverId, value));
  }

  connect(serverId: string): Promise<McpServerView> {
    return this.loaded().then((hub) => hub.connect(serverId));
  }

  setPermission(serverId: string, toolName: string, permission: ToolPermission): Promise<McpServerView> {
    return this.loaded().then((hub) => hub.setPermission(serverId, toolName, permission));
  }

  prepareCall(serverId: string): Promise<boolean> {
    return this.loaded().then((hub) => hub.prepareCall(serverId));
  }

  /** No tools, and no code loaded, while nothing is stored in the server list and the hub was never needed. */
  async tools(): Promise<Tool[]> {
    if (!this.hub && !mayHoldServers((await this.options.config.read()).mcpServers)) return [];
    return (await this.loaded()).tools();
  }

  reload(): Promise<McpServerView[]> {
    return this.loaded().then((hub) => hub.reload());
  }

  /** Closes every connection; a hub never loaded has none. */
  async close(): Promise<void> {
    if (this.hub) await (await this.hub).close();
  }
}

/** The stored list as read: McpServerStore's `readList` finds servers only in a list that is not empty. */
function mayHoldServers(stored: unknown): boolean {
  return Array.isArray(stored) && stored.length > 0;
}

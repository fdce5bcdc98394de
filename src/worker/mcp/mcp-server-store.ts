import { WireError } from '../../schema/wire-error';
import type { McpServerInput, ToolPermission } from '../../schema/mcp';
import { MCP_SERVERS_KEY, type StoredConfig } from '../settings/stored-config';
import { MCP_PREFIX, normalizeServerName } from './tool-names';

export { MCP_SERVERS_KEY };

/** A server as stored. The token is a secret: it leaves this store only towards the server's own origin. */
export interface StoredMcpServer {
  id: string;
  name: string;
  url: string;
  token?: string;
  /** By model-facing tool name; a tool not listed is 'ask'. */
  permissions: Record<string, ToolPermission>;
}

/**
 * The MCP server list in IndexedDB: one record in the `settings` store, changed in one transaction per edit. Read from
 * the worker's StoredConfig, which every edit here (and in other tabs) invalidates.
 */
export class McpServerStore {
  constructor(
    private readonly config: StoredConfig,
    private readonly newId: () => string,
  ) {}

  async list(): Promise<StoredMcpServer[]> {
    return readList((await this.config.read()).mcpServers);
  }

  /**
   * Adds or edits a server. An absent token keeps the stored one only while the URL's origin stays the same: a token must
   * never follow an edited URL to another server. Names must stay distinct once normalised, as tool names are built from them.
   */
  async save(input: McpServerInput): Promise<StoredMcpServer> {
    const url = checkUrl(input.url);
    return this.update((servers) => {
      const existing = input.id ? servers.find((server) => server.id === input.id) : undefined;
      if (input.id && !existing) throw new WireError({ code: 'not_found', message: 'That MCP server no longer exists.', field: 'server.id' });
      const clash = servers.find((server) => server.id !== existing?.id && normalizeServerName(server.name) === normalizeServerName(input.name));
      if (clash) {
        const prefix = `${MCP_PREFIX}${normalizeServerName(input.name)}__`;
        throw new WireError({
          code: 'invalid_command',
          reason: 'server_name_taken',
          params: { name: clash.name, prefix },
          message: `A server named "${clash.name}" already uses the tool names ${prefix}…; give this one another name.`,
          field: 'server.name',
        });
      }
      const sameOrigin = existing !== undefined && new URL(existing.url).origin === new URL(url).origin;
      const token = input.clearToken ? undefined : input.token || (sameOrigin ? existing.token : undefined);
      // Permissions are keyed by model-facing names, which contain the server's name: a rename starts them afresh.
      const keepPermissions = existing !== undefined && normalizeServerName(existing.name) === normalizeServerName(input.name);
      const saved: StoredMcpServer = {
        id: existing?.id ?? this.newId(),
        name: input.name,
        url,
        ...(token ? { token } : {}),
        permissions: keepPermissions ? existing.permissions : {},
      };
      return { servers: existing ? servers.map((server) => (server.id === saved.id ? saved : server)) : [...servers, saved], result: saved };
    });
  }

  /**
   * Stores another device's version of a server: its name and URL only (docs/architecture.md, "Settings that sync").
   * The token stays while the URL's origin stays the same, the permissions while the name does; a name another server
   * here already uses (tool names are built from it) is suffixed, "Files (2)", as a backup's would be.
   */
  async putSynced(serverId: string, value: { name: string; url: string }): Promise<void> {
    const url = checkUrl(value.url);
    await this.update((servers) => {
      const existing = servers.find((server) => server.id === serverId);
      const taken = (name: string) => servers.some((server) => server.id !== serverId && normalizeServerName(server.name) === normalizeServerName(name));
      let name = value.name;
      for (let suffix = 2; taken(name); suffix += 1) name = `${value.name.slice(0, 50)} (${suffix})`;
      const sameOrigin = existing !== undefined && new URL(existing.url).origin === new URL(url).origin;
      const keepPermissions = existing !== undefined && normalizeServerName(existing.name) === normalizeServerName(name);
      const saved: StoredMcpServer = { id: serverId, name, url, ...(sameOrigin && existing.token ? { token: existing.token } : {}), permissions: keepPermissions ? existing.permissions : {} };
      return { servers: existing ? servers.map((server) => (server.id === serverId ? saved : server)) : [...servers, saved], result: undefined };
    });
  }

  async remove(serverId: string): Promise<void> {
    await this.update((servers) => ({ servers: servers.filter((server) => server.id !== serverId), result: undefined }));
  }

  async setPermission(serverId: string, toolName: string, permission: ToolPermission): Promise<StoredMcpServer> {
    return this.update((servers) => {
      const server = servers.find((candidate) => candidate.id === serverId);
      if (!server) throw new WireError({ code: 'not_found', message: 'That MCP server no longer exists.', field: 'serverId' });
      const permissions = { ...server.permissions };
      if (permission === 'ask') delete permissions[toolName];
      else permissions[toolName] = permission;
      const saved = { ...server, permissions };
      return { servers: servers.map((candidate) => (candidate.id === serverId ? saved : candidate)), result: saved };
    });
  }

  private update<T>(change: (servers: StoredMcpServer[]) => { servers: StoredMcpServer[]; result: T }): Promise<T> {
    return this.config.write(['settings'], async (transaction) => {
      const store = transaction.objectStore('settings');
      const { servers, result } = change(readList(await store.get(MCP_SERVERS_KEY)));
      await store.put(servers, MCP_SERVERS_KEY);
      return result;
    });
  }
}

/** The stored list, dropping anything malformed (the store holds `unknown`). */
export function readList(value: unknown): StoredMcpServer[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is StoredMcpServer =>
      typeof entry === 'object' && entry !== null && typeof entry.id === 'string' && typeof entry.name === 'string' && typeof entry.url === 'string' && typeof entry.permissions === 'object',
  );
}

/** The URL, if it is an absolute http(s) URL; else an `invalid_command` naming the field. */
function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WireError({ code: 'invalid_command', message: 'The server URL is not a valid URL (for example http://localhost:3001/mcp).', field: 'server.url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WireError({ code: 'invalid_command', message: 'The server URL must start with http:// or https:// (Parley reaches MCP servers over HTTP; a stdio server needs a gateway such as supergateway).', field: 'server.url' });
  }
  if (url.username || url.password) {
    throw new WireError({ code: 'invalid_command', message: 'Put the credentials in "Bearer token", not in the URL.', field: 'server.url' });
  }
  return url.href;
}

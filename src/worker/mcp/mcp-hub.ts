import type { ElicitationRequest, ElicitationResponse, Tool, ToolContext, ToolOutput } from '../../core/tools/tool';
import type { McpServerInput, McpServerView, ToolPermission } from '../../schema/mcp';
import { WireError } from '../../schema/wire-error';
import type { ParleyDatabase } from '../store/database';
import type { McpConnection, openMcpConnection } from './mcp-connection';
import { describeOpenFailure, McpCallError } from './mcp-errors';
import { serverView, waitBriefly, type ServerState } from './server-state';
import { McpServerStore, type StoredMcpServer } from './mcp-server-store';
import { StoredConfig } from '../settings/stored-config';
import { checkTools, type ServerTool } from './listed-tools';
import { unknownMcpToolText } from './tool-names';
import { callOnConnection, mcpTool } from './mcp-tool';
import { prolongPrepared } from './keep-prepared';

export interface McpHubOptions {
  database: ParleyDatabase;
  /** The worker's copy of the stored config (shared with SettingsStore); one of its own over `database` without it. */
  config?: StoredConfig;
  newId(): string;
  /** Every change of what `listServers` returns: a server saved or removed, a status, a permission. */
  onChange(servers: McpServerView[]): void;
  /** The fetch the transports and the CORS probe use (tests may pass their own). */
  fetch?: typeof fetch;
  /** How a failed server is retried by `tools()`: not more often than this (default 30 s). */
  retryAfterMs?: number;
  /**
   * How long a model step waits for a server still connecting (default 8 s, counted from the attempt's start): one that
   * takes longer is left out of that step and goes on connecting, shown as connecting in Settings, so a server that
   * never answers does not hold every step.
   */
  connectWaitMs?: number;
  now?(): number;
  /** Loads the SDK side; a dynamic import by default so the worker starts without the SDK. */
  loadConnector?(): Promise<typeof openMcpConnection>;
}

const CLIENT_VERSION = '0.1.0';

/**
 * The worker's MCP servers: their stored configuration, this tab's connection to each, and their tools as `Tool`s
 * for the agent loop. Connections are opened lazily (when a conversation asks for tools) or on `connect`.
 */
export class McpHub {
  private readonly store: McpServerStore;
  private readonly config: StoredConfig;
  private readonly states = new Map<string, ServerState>();
  private readonly fetch: typeof fetch;

  constructor(private readonly options: McpHubOptions) {
    this.config = options.config ?? new StoredConfig(options.database);
    this.store = new McpServerStore(this.config, options.newId);
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Every server with this tab's status and tools; tokens masked. */
  async listServers(): Promise<McpServerView[]> {
    return (await this.store.list()).map((server) => serverView(server, this.states.get(server.id)));
  }

  /** Adds or edits a server, then connects to it. Resolves once saved; the connection's outcome arrives as a change. */
  async saveServer(input: McpServerInput): Promise<McpServerView> {
    const saved = await this.store.save(input);
    this.disconnect(saved.id);
    await this.changed();
    void this.connect(saved.id);
    return serverView(saved, this.states.get(saved.id));
  }

  async removeServer(serverId: string): Promise<void> {
    await this.store.remove(serverId);
    this.disconnect(serverId);
    this.states.delete(serverId);
    await this.changed();
  }

  /** Another device's version of a server (sync), or its deletion there: stored, and a connection it changed dropped. */
  async applySynced(serverId: string, value: { name: string; url: string } | undefined): Promise<void> {
    if (value) await this.store.putSynced(serverId, value);
    else await this.store.remove(serverId);
    await this.reload();
    await this.changed();
  }

  /** (Re)connects a server and lists its tools. Resolves when connected or failed; never rejects for a server's failure. */
  async connect(serverId: string): Promise<McpServerView> {
    const server = await this.find(serverId);
    this.disconnect(serverId);
    await this.open(server);
    return serverView(server, this.states.get(server.id));
  }

  async setPermission(serverId: string, toolName: string, permission: ToolPermission): Promise<McpServerView> {
    const saved = await this.store.setPermission(serverId, toolName, permission);
    await this.changed();
    return serverView(saved, this.states.get(saved.id));
  }

  /**
   * The tools of every server, for a conversation's next model request: servers not yet connected are connected first
   * (one that failed is retried after a while). Tools set to 'never' are listed with that permission: `toolSpecs` keeps
   * them from the model, and a call of one anyway is refused as the user's choice (see processToolCalls).
   */
  async tools(): Promise<Tool[]> {
    const servers = await this.store.list();
    const now = this.now();
    await Promise.all(
      servers.map(async (server) => {
        const state = this.state(server.id);
        if (state.connecting) return waitBriefly(state, this.now(), this.options.connectWaitMs ?? 8_000);
        const stale = state.connection !== undefined && state.connectedWith !== fingerprint(server);
        const retry = state.status === 'error' && now - (state.failedAt ?? 0) >= (this.options.retryAfterMs ?? 30_000);
        if (state.status === 'disconnected' || stale || retry) {
          this.disconnect(server.id);
          void this.open(server);
          return waitBriefly(state, this.now(), this.options.connectWaitMs ?? 8_000);
        }
        return undefined;
      }),
    );
    return servers.flatMap((server) => this.state(server.id).tools.map((tool) => mcpTool(server, tool, (args, context) => this.call(server.id, tool, args, context))));
  }

  /**
   * An approval of one of this server's tools is on screen: its call may come at any moment. For the next
   * PREPARE_LEASE_MS a connected server is sent MCP's `ping` (a request with the same headers as a call) whenever the
   * browser's CORS preflight for them has expired, so the Allow's `tools/call` finds one cached, and its socket open,
   * instead of waiting for both first (Chromium keeps a preflight 5 s when the server names no `Access-Control-Max-Age`).
   * A server not yet connected here is connected, as the call would be first; one that failed is left to `tools()`'s
   * retries. Resolves whether the server is connected.
   */
  async prepareCall(serverId: string): Promise<boolean> {
    const state = this.states.get(serverId);
    if (state?.connecting || state?.status === 'error') return false;
    if (!state?.connection) {
      const server = await this.find(serverId).catch(() => undefined);
      if (!server || this.state(serverId).connecting) return false;
      if (!this.state(serverId).connection) await this.open(server);
      return this.state(serverId).connection !== undefined;
    }
    prolongPrepared(state, state.connection);
    return true;
  }

  /** What the model reads after calling an `mcp__` name that is no tool it may call. */
  unknownToolText(name: string, availableNames: readonly string[]): string {
    return unknownMcpToolText(name, availableNames);
  }

  /** Another tab changed the stored servers: drop connections to removed or edited ones, and show what is stored. */
  async reload(): Promise<McpServerView[]> {
    this.config.invalidate();
    const servers = await this.store.list();
    for (const serverId of [...this.states.keys()]) {
      const server = servers.find((candidate) => candidate.id === serverId);
      const state = this.states.get(serverId);
      if (!server) {
        this.disconnect(serverId);
        this.states.delete(serverId);
      } else if (state?.connectedWith !== undefined && state.connectedWith !== fingerprint(server)) {
        this.disconnect(serverId);
      }
    }
    return servers.map((server) => serverView(server, this.states.get(server.id)));
  }

  /** Closes every connection (the worker is going away, or a test ends). */
  async close(): Promise<void> {
    await Promise.all([...this.states.values()].map((state) => state.connection?.close()));
    this.states.clear();
  }

  /** Runs one tool call. A result (even `isError`) resolves; a lost server or connection rejects with McpCallError; Stop rejects with the abort reason. */
  private async call(serverId: string, tool: ServerTool, args: unknown, context: ToolContext): Promise<ToolOutput> {
    context.signal.throwIfAborted();
    const server = await this.find(serverId).catch(() => {
      throw new McpCallError(`The MCP server of ${tool.name} was removed; the tool did not run.`);
    });
    let state = this.state(serverId);
    if (state.connecting) await state.connecting;
    if (!state.connection || state.connectedWith !== fingerprint(server)) {
      this.disconnect(serverId);
      await this.open(server);
      state = this.state(serverId);
    }
    const connection = state.connection;
    if (!connection) throw new McpCallError(`The MCP server "${server.name}" is not connected: ${state.error?.message ?? 'the connection failed'}. The tool did not run.`);
    return callOnConnection(connection, state, server.name, tool, args, context);
  }

  private open(server: StoredMcpServer): Promise<void> {
    const state = this.state(server.id);
    const generation = state.generation;
    state.status = 'connecting';
    state.connectingSince = this.now();
    delete state.error;
    const attempt = (async () => {
      void this.changed();
      let connection: McpConnection | undefined;
      try {
        const connector = await (this.options.loadConnector?.() ?? import('./mcp-connection').then((module) => module.openMcpConnection));
        connection = await connector({
          url: server.url,
          ...(server.token ? { token: server.token } : {}),
          fetch: this.fetch,
          clientVersion: CLIENT_VERSION,
          onClose: () => {
            if (state.generation !== generation || state.connection !== connection) return;
            state.generation += 1;
            delete state.connection;
            state.status = 'disconnected';
            void this.changed();
          },
          onElicit: (request: ElicitationRequest): Promise<ElicitationResponse> | undefined => {
            // The SDK does not say which call a request belongs to: the latest call that can ask the user gets it.
            const call = [...state.inFlight].reverse().find((candidate) => candidate.elicit);
            return call?.elicit?.(request);
          },
        });
        const listed = await connection.listTools();
        if (state.generation !== generation) {
          await connection.close();
          return;
        }
        const { tools, problems } = checkTools(server.name, listed);
        state.connection = connection;
        state.connectedWith = fingerprint(server);
        state.tools = tools;
        state.status = 'connected';
        if (problems.length > 0) state.error = { code: 'invalid_tools', message: problems.join(' ') };
      } catch (error) {
        await connection?.close();
        if (state.generation !== generation) return;
        state.status = 'error';
        state.failedAt = this.now();
        state.tools = [];
        state.error = await describeOpenFailure(error, server.url, this.fetch);
      } finally {
        if (state.generation === generation) delete state.connecting;
        void this.changed();
      }
    })();
    state.connecting = attempt;
    return attempt;
  }

  /** Forgets this tab's connection to a server (its calls in flight fail with a clear message). */
  private disconnect(serverId: string): void {
    const state = this.states.get(serverId);
    if (!state) return;
    state.generation += 1;
    const connection = state.connection;
    delete state.connection;
    delete state.connecting;
    delete state.connectedWith;
    delete state.error;
    state.status = 'disconnected';
    state.tools = [];
    void connection?.close();
  }

  private state(serverId: string): ServerState {
    let state = this.states.get(serverId);
    if (!state) {
      state = { status: 'disconnected', tools: [], generation: 0, inFlight: [] };
      this.states.set(serverId, state);
    }
    return state;
  }

  private async find(serverId: string): Promise<StoredMcpServer> {
    const server = (await this.store.list()).find((candidate) => candidate.id === serverId);
    if (!server) throw new WireError({ code: 'not_found', message: 'That MCP server no longer exists. It may have been removed in another tab.', field: 'serverId' });
    return server;
  }

  private async changed(): Promise<void> {
    try {
      this.options.onChange(await this.listServers());
    } catch {
      // A view that cannot be read now (the database closing) is read again on the next change.
    }
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/** What a connection depends on: an edit of the URL or the token needs a new one. */
function fingerprint(server: StoredMcpServer): string {
  return `${server.url}\u0000${server.token ?? ''}`;
}

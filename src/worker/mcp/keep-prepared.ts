// An MCP server kept ready while an approval of one of its tools is on screen (McpHub.prepareCall, docs/architecture.md).
import type { McpConnection } from './mcp-connection';
import type { ServerState } from './server-state';

/** How long one prepareCall keeps a server ready: the UI asks again every 4 s while the approval stays on screen. */
const PREPARE_LEASE_MS = 5_000;
/** A ping goes this long after the last preflight expired (see McpConnection.preflightExpiresAt). */
const PREPARE_MARGIN_MS = 20;

/** Extends the lease of `state`'s readiness and, unless it is kept already, keeps `connection` ready while it lasts. */
export function prolongPrepared(state: ServerState, connection: McpConnection): void {
  state.preparedUntil = Date.now() + PREPARE_LEASE_MS;
  if (!state.preparing) void keepPrepared(state, connection);
}

/** Pings `connection` each time its preflight expires, while prepareCall's lease lasts; a failed ping ends it (the call meets why). */
async function keepPrepared(state: ServerState, connection: McpConnection): Promise<void> {
  state.preparing = true;
  try {
    while (state.connection === connection && Date.now() < (state.preparedUntil ?? 0)) {
      const wait = connection.preflightExpiresAt() + PREPARE_MARGIN_MS - Date.now();
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, PREPARE_LEASE_MS)));
        continue;
      }
      const before = connection.preflightExpiresAt();
      await connection.ping();
      if (connection.preflightExpiresAt() === before) return; // not a request the clock sees: pinging again would not help

    }
  } catch {
    // The server went away, or refused the ping: nothing to ready.
  } finally {
    state.preparing = false;
  }
}

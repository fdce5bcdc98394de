import type { McpServerError } from '../../schema/mcp';
import type { ConnectFailure } from './mcp-connection';

const PROBE_TIMEOUT_MS = 5000;
const DETAIL_LIMIT = 300;

/**
 * A failed connection in words. A request that got no answer is probed with an opaque no-cors fetch (as the provider
 * errors do): if that gets through, the server is up but refused this origin (CORS); if not, it is unreachable.
 */
async function describeConnectFailure(failure: ConnectFailure, url: string, fetchImplementation: typeof fetch = globalThis.fetch): Promise<McpServerError> {
  switch (failure.kind) {
    case 'unauthorized':
      return { code: 'unauthorized', message: `The server refused the token (HTTP ${failure.status}). Check the bearer token for ${url}.` };
    case 'http':
      return {
        code: 'protocol',
        message: `The server at ${url} answered HTTP ${failure.status} to the MCP handshake, over Streamable HTTP and over HTTP+SSE. Check that the URL is the server's MCP endpoint (it often ends in /mcp or /sse).`,
      };
    case 'protocol':
      return { code: 'protocol', message: `The server at ${url} did not speak MCP as expected: ${limit(failure.detail)}` };
    case 'fetch_failed': {
      if (globalThis.navigator?.onLine === false) return { code: 'unreachable', message: `You are offline, so ${url} cannot be reached.` };
      if (await isReachable(url, fetchImplementation)) {
        const origin = globalThis.location?.origin ?? "this app's origin";
        return {
          code: 'cors',
          message: `The server at ${url} answered, but it does not allow requests from this app (CORS). The server must allow the origin ${origin} (and the headers content-type, authorization, mcp-session-id and mcp-protocol-version, exposing mcp-session-id). A stdio server can be exposed with a gateway such as \`supergateway --cors\`.`,
        };
      }
      return { code: 'unreachable', message: `Cannot reach ${url}. Check the URL, that the server is running, and your connection.` };
    }
  }
}

async function isReachable(url: string, fetchImplementation: typeof fetch): Promise<boolean> {
  try {
    await fetchImplementation(url, { mode: 'no-cors', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

function limit(text: string): string {
  return text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT)}…` : text;
}

/** A tool call that could not complete: the server went away, or the connection failed. Rejected from `execute`. */
export class McpCallError extends Error {
  override readonly name = 'McpCallError';
}

/** Why opening a connection failed, in words: the transport's own failure, or what the server answered. */
export async function describeOpenFailure(error: unknown, url: string, fetchImplementation: typeof fetch): Promise<McpServerError> {
  // By name, not instanceof: importing the class would pull the SDK into the worker's first chunk.
  if (error instanceof Error && error.name === 'McpConnectError') {
    return describeConnectFailure((error as Error & { failure: ConnectFailure }).failure, url, fetchImplementation);
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'protocol', message: `Connecting to ${url} failed: ${message}` };
}

/** The SDK's own codes for a closed connection (-32000) and a timeout (-32001): not an answer from the server. */
const LOCAL_ERROR_CODES = new Set([-32000, -32001]);

/** A JSON-RPC error answer from the server (an McpError the SDK rebuilt), as opposed to a lost connection. */
export function isJsonRpcError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && error.name === 'McpError' && typeof code === 'number' && !LOCAL_ERROR_CODES.has(code);
}

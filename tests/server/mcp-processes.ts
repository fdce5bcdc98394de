import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Real MCP servers for tests, started from node_modules/.bin on free localhost ports, each in its own process group so
 * that stopping one kills its children too (supergateway spawns the stdio server).
 */

const BIN = resolve(import.meta.dirname, '../../node_modules/.bin');
const START_TIMEOUT_MS = 30_000;

export interface RunningServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * `@modelcontextprotocol/server-everything` over Streamable HTTP (permissive CORS) at /mcp, or over the older HTTP+SSE
 * transport at /sse.
 */
export async function startEverythingServer(transport: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<RunningServer> {
  const port = await freePort();
  const child = spawnServer(join(BIN, 'mcp-server-everything'), [transport], { PORT: String(port) });
  return running(child, port, `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`);
}

/** `@modelcontextprotocol/server-memory` (a stdio server) behind `supergateway --cors`, at /mcp; its graph in a temp dir. */
export async function startMemoryGateway(): Promise<RunningServer> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'parley-memory-'));
  const child = spawnServer(
    join(BIN, 'supergateway'),
    ['--stdio', join(BIN, 'mcp-server-memory'), '--outputTransport', 'streamableHttp', '--port', String(port), '--cors', '--stateful', '--logLevel', 'none'],
    { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') },
  );
  const server = await running(child, port, `http://127.0.0.1:${port}/mcp`);
  return {
    ...server,
    async stop() {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function spawnServer(command: string, args: string[], environment: Record<string, string>): ChildProcess {
  const child = spawn(command, args, {
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  (child as ChildProcess & { recentErrors(): string }).recentErrors = () => errors;
  return child;
}

async function running(child: ChildProcess, port: number, url: string): Promise<RunningServer> {
  const stop = () => stopProcess(child);
  try {
    await waitForPort(child, port);
  } catch (error) {
    await stop();
    const errors = (child as ChildProcess & { recentErrors?(): string }).recentErrors?.() ?? '';
    throw new Error(`${(error as Error).message}${errors ? `\n${errors}` : ''}`);
  }
  return { url, port, stop };
}

function waitForPort(child: ChildProcess, port: number): Promise<void> {
  const started = Date.now();
  return new Promise((resolveReady, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`the server exited (${child.exitCode ?? child.signalCode}) before listening on ${port}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolveReady();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() - started > START_TIMEOUT_MS) reject(new Error(`nothing listened on ${port} within ${START_TIMEOUT_MS} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/** Kills the server's whole process group, and waits for it to go. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolveStopped) => {
    const force = setTimeout(() => signalGroup(child, 'SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStopped();
    });
    signalGroup(child, 'SIGTERM');
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
}

// Tools: approval → tool request at a real MCP server (server-everything's echo) → the next model request,
// against a raw postMessage round trip plus the server's own latency for that call; and how many IndexedDB
// transactions one approved call costs in the worker. Never fails the benchmark: a problem becomes a printed reason.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { countWorkerTransactions, sleep } from './harness.mjs';
import { chatRequests, clockOffset, conversationWithServer } from './parley.mjs';

const MCP_BIN = 'node_modules/.bin/mcp-server-everything';
const TOOL = 'mcp__everything__echo';

/**
 * How long a person looks at the approval card before Allow, by default: longer than Chromium keeps a CORS preflight
 * without `Access-Control-Max-Age` (5 s), as a person's Allow always is; a bench that clicks at once never sees one.
 */
export const APPROVAL_READ_MS = 6000;

/**
 * Runs `rounds` approvals, each Allow `readMs` after its card showed. Resolves with medians and the raw rounds, or
 * `{ skipped: reason }` whenever it cannot run. `page` already has the provider server's profile (see addServerProfile).
 */
export async function measureMcpApproval(page, base, provider, port, rounds, readMs = APPROVAL_READ_MS) {
  if (!existsSync(MCP_BIN)) return { skipped: `${MCP_BIN} is not installed (npm ci installs it)` };
  const child = spawn(MCP_BIN, ['streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore', detached: true });
  const proxy = await startTimingProxy(`http://127.0.0.1:${port}`);
  try {
    if (!(await answers(`http://127.0.0.1:${port}/mcp`))) return { skipped: 'server-everything did not start' };
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const region = page.getByRole('region', { name: 'MCP servers', exact: true });
    await region.getByRole('button', { name: 'Add MCP server', exact: true }).click();
    await region.getByRole('textbox', { name: 'Server name', exact: true }).fill('everything');
    await region.getByRole('textbox', { name: 'Server URL', exact: true }).fill(`${proxy.url}/mcp`);
    await region.getByRole('button', { name: 'Connect', exact: true }).click();
    await region.getByRole('combobox', { name: TOOL, exact: true }).waitFor({ timeout: 30_000 });

    const results = [];
    for (let round = 0; round < rounds; round += 1) results.push(await approvalRound(page, base, provider, proxy, readMs));
    const median = (pick) => [...results.map(pick)].sort((a, b) => a - b)[Math.floor(results.length / 2)];
    return {
      clickToToolRequest: median((run) => run.clickToToolRequest),
      clickToNextModelRequest: median((run) => run.clickToNextModelRequest),
      serverLatency: median((run) => run.serverLatency),
      transactions: median((run) => run.transactions),
      writeTransactions: median((run) => run.writeTransactions),
      httpRequests: median((run) => run.httpRequests),
      requestsWhileShown: median((run) => run.requestsWhileShown),
      rounds: results,
    };
  } catch (error) {
    return { skipped: `MCP round failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  } finally {
    await proxy.stop();
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

async function approvalRound(page, base, provider, proxy, readMs) {
  await conversationWithServer(page, base);
  provider.enqueue({ text: 'Calling the tool.', toolCalls: [{ name: TOOL, args: { message: 'bench' } }] }, { text: 'Echoed. bench-tool-end' });
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Echo something.');
  await page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
  const card = page.getByRole('group', { name: `Tool call: ${TOOL}`, exact: true });
  await card.waitFor({ timeout: 60_000 });
  const requestsAtCard = proxy.requests.length;
  await sleep(readMs);
  // Count the worker's IndexedDB transactions from the click on.
  const readTransactions = await countWorkerTransactions(page);
  const before = chatRequests(provider).length;
  const toolCallsBefore = proxy.calls.length;
  const requestsBefore = proxy.requests.length;
  await page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= performance.timeOrigin + event.timeStamp), { capture: true, once: true });
  });
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await waitFor(() => chatRequests(provider).length > before && proxy.calls.length > toolCallsBefore && proxy.calls.at(-1).answeredAt !== undefined);
  const transactions = await readTransactions();
  const requests = proxy.requests.slice(requestsBefore);
  const clickAt = await page.evaluate(() => window.__benchClickAt);
  const offset = await clockOffset(page, provider.url);
  const call = proxy.calls[toolCallsBefore];
  await page.waitForFunction(() => document.querySelector('[role="log"]')?.textContent.includes('bench-tool-end'), undefined, { timeout: 60_000 });
  return {
    clickToToolRequest: call.receivedAt - offset - clickAt,
    clickToNextModelRequest: chatRequests(provider)[before].receivedAt - offset - clickAt,
    serverLatency: call.answeredAt - call.receivedAt,
    httpRequests: requests.length,
    // What readying the server cost while the card was read (pings, and their preflights).
    requestsWhileShown: requestsBefore - requestsAtCard,
    requestKinds: requests.map((request) => `${request.method}${request.rpc ? ` ${request.rpc}` : ''}`).join(', '),
    transactions: transactions.all,
    writeTransactions: transactions.write,
  };
}

/** A pass-through HTTP proxy (CORS included) that timestamps each `tools/call` it forwards and when its answer ended. */
async function startTimingProxy(target) {
  const calls = [];
  /** Every HTTP request the server got (the method, and the JSON-RPC method when there is one): an approved call should cost one. */
  const requests = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
    'access-control-expose-headers': 'mcp-session-id',
  };
  const server = createServer((incoming, response) => {
    if (incoming.method === 'OPTIONS') {
      requests.push({ method: 'OPTIONS', receivedAt: Date.now() });
      return void response.writeHead(204, cors).end();
    }
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      let call;
      let rpc;
      try {
        rpc = JSON.parse(body.toString() || 'null')?.method;
        if (rpc === 'tools/call') calls.push((call = { receivedAt: Date.now(), answeredAt: undefined }));
      } catch {
        // not JSON
      }
      requests.push({ method: incoming.method, rpc, receivedAt: Date.now() });
      const url = new URL(incoming.url, target);
      const headers = { ...incoming.headers, host: url.host, 'content-length': String(body.length) };
      delete headers.origin;
      const forwarded = httpRequest(url, { method: incoming.method, headers }, (upstream) => {
        const kept = Object.fromEntries(Object.entries(upstream.headers).filter(([name]) => !name.startsWith('access-control-')));
        response.writeHead(upstream.statusCode ?? 502, { ...kept, ...cors });
        upstream.on('data', () => call && call.answeredAt === undefined && (call.answeredAt = Date.now()));
        upstream.pipe(response);
      });
      forwarded.on('error', () => response.destroy());
      forwarded.end(body);
    });
  });
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls,
    requests,
    stop: () => new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }),
  };
}

async function answers(url) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await fetch(url, { method: 'GET' });
      return true;
    } catch {
      await sleep(100);
    }
  }
  return false;
}

async function waitFor(check, timeoutMs = 60_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the tool call and the next model request');
    await sleep(2);
  }
}

// OPTIONAL (issue 9, tools): runs only when the build can use an MCP server; otherwise says why it was skipped.
// It never fails the benchmark: any problem becomes a printed reason.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { sleep } from './harness.mjs';

const MCP_BIN = 'node_modules/.bin/mcp-server-everything';

/**
 * The time from the model's `echo` tool call reaching the page to the next model request (tool result sent), against
 * a raw fetch to the MCP server. Resolves with `{ skipped: reason }` whenever it cannot run.
 */
export async function measureMcpEcho(page, base, port) {
  if (!existsSync(MCP_BIN)) return { skipped: `${MCP_BIN} is not installed` };
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  // The contract issue 9 is expected to add: a field to add an MCP server by URL.
  const urlField = page.getByRole('textbox', { name: /MCP server/i }).first();
  if ((await urlField.count()) === 0) return { skipped: 'this build has no MCP server setting yet (issue 9)' };
  const child = spawn(MCP_BIN, ['streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore', detached: true });
  try {
    const mcpUrl = `http://127.0.0.1:${port}/mcp`;
    if (!(await answers(mcpUrl))) return { skipped: 'the MCP echo server did not start' };
    await urlField.fill(mcpUrl);
    await page.getByRole('button', { name: /Add|Save|Connect/ }).first().click();
    await page.getByText(/echo/).first().waitFor({ timeout: 15_000 });
    return { skipped: 'an MCP server can be added, but the echo round trip is not wired into the benchmark yet: see bench/mcp.mjs' };
  } catch (error) {
    return { skipped: `MCP setup failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

async function answers(url) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await fetch(url, { method: 'GET' });
      return true;
    } catch {
      await sleep(100);
    }
  }
  return false;
}

import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { startEverythingServer, startMemoryGateway, type RunningServer } from '../tests/server/mcp-processes';
import { startMisbehavingServer, startProxy, type ForwardedCall, type LocalServer } from '../tests/server/mcp-test-servers';

/**
 * Real MCP servers for Playwright, started once per Playwright worker on free localhost ports and always stopped:
 * server-everything (Streamable HTTP, permissive CORS), server-memory behind `supergateway --cors`, a proxy in front of
 * server-everything that demands `Authorization: Bearer <GUARDED_TOKEN>`, one that sends no CORS headers, and a
 * misbehaving server of ours. The servers keep no state between tests that matters here (each test has a fresh
 * browser context, so a fresh Parley database).
 */
export interface McpServers {
  everything: RunningServer;
  memory: RunningServer;
  guarded: LocalServer;
  noCors: LocalServer;
  misbehaving: LocalServer;
  /** server-everything behind a proxy that records every JSON-RPC request (clear `calls` at a test's start). */
  counted: LocalServer & { calls: ForwardedCall[]; holdCalls(): () => void };
}

/** The token the guarded proxy accepts. */
export const GUARDED_TOKEN = 'x';

export const test = base.extend<{ mcp: McpServers }, { mcpServers: McpServers }>({
  mcpServers: [
    // The empty pattern is how Playwright is told this fixture needs no other fixture.
    async ({}, use) => {
      const stops: Array<() => Promise<void>> = [];
      const started = async <T extends { stop(): Promise<void> }>(server: Promise<T>): Promise<T> => {
        const running = await server;
        stops.push(() => running.stop());
        return running;
      };
      try {
        const everything = await started(startEverythingServer());
        const servers: McpServers = {
          everything,
          memory: await started(startMemoryGateway()),
          guarded: await started(startProxy(everything.url, { token: GUARDED_TOKEN })),
          noCors: await started(startProxy(everything.url, { cors: false })),
          misbehaving: await started(startMisbehavingServer()),
          counted: await started(startProxy(everything.url, {})),
        };
        await use(servers);
      } finally {
        await Promise.all(stops.map((stop) => stop()));
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  mcp: async ({ mcpServers }, use) => use(mcpServers),
});

export { expect };

/** Opens Settings; resolves with the "MCP servers" region. */
export async function openMcpSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  const region = mcpRegion(page);
  await expect(region).toBeVisible();
  return region;
}

export function mcpRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'MCP servers', exact: true });
}

/** Adds a server through the form as a user would, and presses Connect. */
export async function addMcpServer(page: Page, server: { name: string; url: string; token?: string }): Promise<void> {
  const region = mcpRegion(page);
  await region.getByRole('button', { name: 'Add MCP server', exact: true }).click();
  await region.getByRole('textbox', { name: 'Server name', exact: true }).fill(server.name);
  await region.getByRole('textbox', { name: 'Server URL', exact: true }).fill(server.url);
  if (server.token !== undefined) await region.getByLabel('Bearer token', { exact: true }).fill(server.token);
  await region.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(region.getByRole('button', { name: 'Connect', exact: true })).toHaveCount(0);
}

/** The list item of one server in the MCP region. */
export function mcpServerItem(page: Page, name: string): Locator {
  return mcpRegion(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: `Remove ${name}`, exact: true }) });
}

/** The permission select of a tool, named by its model-facing name. */
export function permissionSelect(page: Page, modelFacingName: string): Locator {
  return mcpRegion(page).getByRole('combobox', { name: modelFacingName, exact: true });
}

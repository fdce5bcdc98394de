import { addMcpServer, expect, GUARDED_TOKEN, mcpRegion, mcpServerItem, openMcpSettings, permissionSelect, test } from './mcp-servers';

// Settings → MCP servers against real servers on localhost: tools listed, permissions kept across a reload, every
// failure said in words (unreachable, CORS, a refused token, a bad tool schema), and Remove.

test('adding servers lists their tools with hints; a stdio server through supergateway works too', async ({ page, mcp }) => {
  await page.goto('/');
  const region = await openMcpSettings(page);
  await addMcpServer(page, { name: 'Everything', url: mcp.everything.url });
  const everything = mcpServerItem(page, 'Everything');
  await expect(everything.getByText(/^Connected — \d+ tools$/)).toBeVisible();
  await expect(permissionSelect(page, 'mcp__everything__echo')).toHaveValue('ask');
  await expect(permissionSelect(page, 'mcp__everything__get-sum')).toBeVisible();
  const longRunning = everything.getByRole('listitem').filter({ has: page.getByRole('combobox', { name: 'mcp__everything__trigger-long-running-operation', exact: true }) });
  await expect(longRunning.getByText('Read-only', { exact: true })).toBeVisible();
  await expect(permissionSelect(page, 'mcp__everything__echo').getByRole('option')).toHaveText(['Ask every time', 'Always allow', 'Never']);

  await addMcpServer(page, { name: 'Memory', url: mcp.memory.url });
  await expect(mcpServerItem(page, 'Memory').getByText(/^Connected — \d+ tools$/)).toBeVisible();
  await expect(permissionSelect(page, 'mcp__memory__read_graph')).toBeVisible();
  await expect(region.getByRole('alert')).toHaveCount(0);
});

test('a permission chosen in Settings survives a reload', async ({ page, mcp }) => {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'Everything', url: mcp.everything.url });
  await permissionSelect(page, 'mcp__everything__echo').selectOption({ label: 'Always allow' });
  await permissionSelect(page, 'mcp__everything__get-sum').selectOption({ label: 'Never' });
  await expect(permissionSelect(page, 'mcp__everything__get-sum')).toHaveValue('never');

  await page.reload();
  await openMcpSettings(page);
  // A new worker connects again when Settings shows the server.
  await expect(mcpServerItem(page, 'Everything').getByText(/^Connected — \d+ tools$/)).toBeVisible();
  await expect(permissionSelect(page, 'mcp__everything__echo')).toHaveValue('allow');
  await expect(permissionSelect(page, 'mcp__everything__get-sum')).toHaveValue('never');
  await expect(permissionSelect(page, 'mcp__everything__trigger-long-running-operation')).toHaveValue('ask');
});

test('an unreachable server and a server without CORS are told apart, in words', async ({ page, mcp }) => {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'Nowhere', url: 'http://127.0.0.1:9/mcp' });
  await expect(mcpServerItem(page, 'Nowhere')).toContainText('Not connected. Cannot reach http://127.0.0.1:9/mcp. Check the URL, that the server is running, and your connection.');

  await addMcpServer(page, { name: 'Closed', url: mcp.noCors.url });
  const closed = mcpServerItem(page, 'Closed');
  await expect(closed).toContainText('does not allow requests from this app (CORS)');
  await expect(closed).toContainText(`The server must allow the origin ${new URL(page.url()).origin}`);
  await expect(closed).toContainText('supergateway --cors');
});

test('a server that demands a token says it refused it, and connects once the token is given', async ({ page, mcp }) => {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'Guarded', url: mcp.guarded.url });
  const guarded = mcpServerItem(page, 'Guarded');
  await expect(guarded).toContainText('The server refused the token (HTTP 401)');

  await guarded.getByRole('button', { name: 'Edit Guarded', exact: true }).click();
  await mcpRegion(page).getByLabel('Bearer token', { exact: true }).fill(GUARDED_TOKEN);
  await mcpRegion(page).getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(guarded.getByText(/^Connected — \d+ tools$/)).toBeVisible();
  await expect(permissionSelect(page, 'mcp__guarded__echo')).toBeVisible();

  // The token stays in this browser: after a reload the server connects with it again.
  await page.reload();
  await openMcpSettings(page);
  await expect(mcpServerItem(page, 'Guarded').getByText(/^Connected — \d+ tools$/)).toBeVisible();
});

test('a tool with an invalid schema is left out and named; the others are offered', async ({ page, mcp }) => {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'Bad', url: mcp.misbehaving.url });
  const bad = mcpServerItem(page, 'Bad');
  await expect(bad.getByText('Connected — 3 tools', { exact: true })).toBeVisible();
  await expect(bad).toContainText('The tool "broken" has an invalid input schema');
  await expect(permissionSelect(page, 'mcp__bad__echo')).toBeVisible();
  await expect(permissionSelect(page, 'mcp__bad__broken')).toHaveCount(0);
});

test('Remove asks first, then the server and its tools are gone, also after a reload', async ({ page, mcp }) => {
  await page.goto('/');
  await openMcpSettings(page);
  await addMcpServer(page, { name: 'Everything', url: mcp.everything.url });
  await expect(mcpServerItem(page, 'Everything').getByText(/^Connected — \d+ tools$/)).toBeVisible();

  await page.getByRole('button', { name: 'Remove Everything', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this MCP server?' });
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(mcpServerItem(page, 'Everything')).toBeVisible();

  await page.getByRole('button', { name: 'Remove Everything', exact: true }).click();
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Remove Everything', exact: true })).toHaveCount(0);
  await expect(permissionSelect(page, 'mcp__everything__echo')).toHaveCount(0);

  await page.reload();
  await openMcpSettings(page);
  await expect(mcpRegion(page).getByRole('button', { name: 'Add MCP server', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove Everything', exact: true })).toHaveCount(0);
});

test('the MCP client code is loaded only once a server is used, not when Parley starts', async ({ page, context, mcp }) => {
  const scripts: string[] = [];
  context.on('request', (request) => {
    // The service worker precaches every chunk for offline use; what counts is what the page and its worker load.
    if (request.serviceWorker() === null && request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await openMcpSettings(page);
  await expect(page.getByRole('button', { name: 'Add MCP server', exact: true })).toBeVisible();
  expect(scripts.some((path) => path.includes('mcp-connection'))).toBe(false);

  await addMcpServer(page, { name: 'Everything', url: mcp.everything.url });
  await expect(mcpServerItem(page, 'Everything').getByText(/^Connected — \d+ tools$/)).toBeVisible();
  expect(scripts.some((path) => path.includes('mcp-connection'))).toBe(true);
});

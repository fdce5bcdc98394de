import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { assistantMessages, cutNetwork, newConversation, send, useScript, waitForServiceWorker } from './fixtures';

test('offline, a reload opens the app from the cache and the scripted model still answers', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, [{ text: 'Answered without a network.' }]);

  // What a user sees offline, not the browser's emulated `navigator.onLine` (some Chromium builds keep it true here):
  // every request that would leave the browser is counted and refused, so the app can only come from the cache.
  const reachedNetwork = await cutNetwork(context);
  await page.reload();

  await expect(page.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();
  await newConversation(page);
  await send(page, 'Are you there?');
  const reply = assistantMessages(page).first();
  await expect(reply).toContainText('Answered without a network.');
  await expect(reply).toHaveAttribute('data-status', 'complete');
  expect(reachedNetwork).toEqual([]);
});

test('the "Ready to work offline" note does not move the page under the pointer', async ({ page }) => {
  await page.goto('/');
  const settings = page.getByRole('button', { name: 'Settings', exact: true });
  const newConversationButton = page.getByRole('button', { name: 'New conversation', exact: true }).first();
  await expect(newConversationButton).toBeVisible();
  const before = [await settings.boundingBox(), await newConversationButton.boundingBox()];
  // The note appears once the service worker has cached the app (a first visit), while the user may be clicking.
  await expect(page.getByRole('status').filter({ hasText: 'Ready to work offline' })).toBeVisible();
  expect([await settings.boundingBox(), await newConversationButton.boundingBox()]).toEqual(before);
});

test('requests to other origins go straight to the network, not through the service worker; the app\'s own still do', async ({ page, context }) => {
  // Stands for a model provider or an MCP server: any origin but the app's.
  const elsewhere = createServer((_request, response) => response.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  const otherUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/v1/models`;
  try {
    await page.goto('/');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const routes = new Map<string, { ruleIdMatched?: number; matchedSourceType?: string } | null>();
    cdp.on('Network.responseReceived', (event) => {
      routes.set(new URL(event.response.url).pathname, (event.response as { serviceWorkerRouterInfo?: { ruleIdMatched?: number; matchedSourceType?: string } }).serviceWorkerRouterInfo ?? null);
    });
    await page.evaluate(async (url) => {
      await (await fetch(url)).text();
      await (await fetch('/manifest.webmanifest')).text();
    }, otherUrl);
    await expect.poll(() => routes.size).toBe(2);
    expect(routes.get('/v1/models')).toMatchObject({ matchedSourceType: 'network' });
    expect(routes.get('/manifest.webmanifest')?.matchedSourceType).toBeUndefined();
  } finally {
    elsewhere.close();
  }
});

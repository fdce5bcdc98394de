import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Frame, type Page } from '@playwright/test';
import { BASE_URL, waitForServiceWorker } from './fixtures';

// No framing (clickjacking of Allow): a page of the same site (another port of the same host) once framed Parley at 30%
// opacity over its own button, and one click gave one tools/call. The server refuses the frame with its headers; where
// a host sends none, the page refuses to run framed and shows only a link to Parley in its own tab.

/** What Chromium puts in a frame whose document it refused to show. */
const REFUSED = 'chrome-error://chromewebdata/';

let framingServer: Server;
let framingUrl: string;

test.beforeAll(async () => {
  // Another origin of the same site: localhost, another port, as a page of the same host would be.
  framingServer = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Framing page</title><button>Win a prize</button><iframe src="${BASE_URL}/" style="opacity: 0.3; width: 1000px; height: 600px"></iframe>`);
  });
  await new Promise<void>((resolve) => framingServer.listen(0, 'localhost', resolve));
  framingUrl = `http://localhost:${(framingServer.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise((resolve) => framingServer.close(resolve));
});

// A fresh visitor: no service worker yet (its cached page is looked at by itself below).
test.use({ serviceWorkers: 'block' });

// The page goes on loading the app's files through the header-stripping route after the assertions are met: a route
// still fetching when the context closes failed a test that had passed ("route.fetch: Test ended").
test.afterEach(async ({ context }) => {
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

/** The framed Parley, once its document has loaded, or the error page that takes the place of a refused one. */
async function framedParley(page: Page): Promise<Frame> {
  await page.goto(framingUrl);
  await expect.poll(() => page.frames().length).toBe(2);
  const frame = page.frames()[1]!;
  // Past the frame's first, empty document.
  await expect.poll(() => frame.url()).not.toBe('about:blank');
  await frame.waitForLoadState('load');
  return frame;
}

/** Every response from Parley's server, without the headers that forbid framing, as a static host that sends none. */
async function withoutFrameHeaders(context: BrowserContext): Promise<void> {
  await context.route(`${BASE_URL}/**`, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['x-frame-options'];
    delete headers['content-security-policy'];
    await route.fulfill({ response, headers });
  });
}

test('the server forbids framing: the frame shows nothing of Parley', async ({ page }) => {
  const response = await page.request.get(`${BASE_URL}/`);
  expect(response.headers()['x-frame-options']).toBe('DENY');
  expect(response.headers()['content-security-policy']).toBe("frame-ancestors 'none'");

  const frame = await framedParley(page);
  // The browser refused the document: the frame holds Chromium's error page, not Parley.
  expect(frame.url()).toBe(REFUSED);
  await expect(frame.getByRole('button', { name: 'New conversation' })).toHaveCount(0);
  await expect(frame.getByRole('button', { name: 'Allow' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Win a prize' })).toBeVisible();
});

test('served without those headers, framed Parley shows one line and no controls, and does not start', async ({ page, context }) => {
  await withoutFrameHeaders(context);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const frame = await framedParley(page);
  expect(frame.url()).toBe(`${BASE_URL}/`);
  const link = frame.getByRole('link', { name: 'Open Parley in its own tab', exact: true });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener');
  await expect(link).toHaveAttribute('href', `${BASE_URL}/`);
  await expect(frame.getByRole('button')).toHaveCount(0);
  await expect(frame.getByRole('searchbox')).toHaveCount(0);
  await expect(frame.locator('#root')).toHaveText('Open Parley in its own tab');
  // boot.ts has run by the frame's load: had it started the agent worker, it would be here.
  expect(workers).toEqual([]);

  // Opened in its own tab, it is Parley as ever.
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(tab.getByRole('button', { name: 'New conversation', exact: true })).toBeVisible();
  await expect(tab.getByRole('searchbox', { name: 'Search conversations', exact: true })).toBeEnabled();
});

test.describe('from the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('a host that sends no headers: the page the service worker serves forbids framing all the same', async ({ page, context }) => {
    await withoutFrameHeaders(context);
    await page.goto('/');
    await waitForServiceWorker(page);
    // Same site, so the frame's storage is not partitioned: the service worker serves it, from its cache.
    const frame = await framedParley(page);
    expect(frame.url()).toBe(REFUSED);
    await expect(frame.getByRole('link')).toHaveCount(0);
    await expect(frame.getByRole('button')).toHaveCount(0);
  });
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the one line is in the browser\'s language', async ({ page, context }) => {
    await withoutFrameHeaders(context);
    const frame = await framedParley(page);
    await expect(frame.getByRole('link', { name: '在单独的标签页中打开 Parley', exact: true })).toBeVisible();
    await expect(frame.getByRole('button')).toHaveCount(0);
  });
});

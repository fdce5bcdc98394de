import { expect, test, type Page } from '@playwright/test';
import { SMALL_CONTEXT_TOKENS, startModelServer, type ModelServer } from '../tests/fixtures/model-server';
import { assistantMessages, newConversation, send, waitForServiceWorker } from './fixtures';
import { questionForm, submitButton } from './question-helpers';

/**
 * The in-browser model with the real engine (wllama) in real Chromium, on a tiny random-weight GGUF that the test
 * writes and serves itself (tests/fixtures). Nothing here is mocked: download, OPFS, the engine's worker, generation.
 */

let server: ModelServer;
test.beforeAll(async () => {
  server = await startModelServer();
});
test.afterAll(async () => {
  await server.close();
});
// The engine is heavy for a 2-core machine: one test at a time, with room for a model load and a reply.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const READY = 'Ready (stored on this device).';

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/#\/settings$/);
}

/** Creates an in-browser profile for `url` through Settings, as a user would, and makes it the default. */
async function createInBrowserProfile(page: Page, name: string, url: string) {
  await openSettings(page);
  await page.getByRole('button', { name: 'Add profile', exact: true }).click();
  await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'In-browser' });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  // A new profile starts on the first listed model; a URL typed below makes it "Other model".
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue(/\/Qwen3-0\.6B-Q4_K_M\.gguf$/);
  await page.getByRole('textbox', { name: 'Model URL', exact: true }).fill(url);
  await page.getByRole('textbox', { name: 'Model URL', exact: true }).blur();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  // A profile just added is the default for new conversations.
  await expect(page.getByText(`New conversations will use ${name}.`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: `Use ${name}`, exact: true })).toHaveCount(0);
}

function modelStatus(page: Page) {
  return page.locator('.local-model').getByRole('status');
}

/**
 * What the origin's file system (where models are stored) takes, as Settings shows it: Chromium's
 * `usageDetails.fileSystem`. Not the whole usage, which IndexedDB's own log and compaction move by megabytes meanwhile.
 */
async function storageUsage(page: Page): Promise<number> {
  return page.evaluate(async () => ((await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { fileSystem?: number } }).usageDetails?.fileSystem ?? 0);
}

test('download with progress survives a reload, then the model runs offline, streams, stops, and is deleted', async ({ page, context }) => {
  await page.goto('/');
  // Ready to work offline first ("Ready to work offline."), then a reload: the page and its agent worker start under the
  // service worker, so the engine's files that the download fetches are cached for the offline run below. Without it,
  // on a loaded machine the service worker could still be installing through the whole download, and the offline
  // engine then had no wasm (its reply stayed empty for 120 s).
  await waitForServiceWorker(page);
  await page.reload();
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  const url = `${server.url}/slow/tiny.gguf`;
  await createInBrowserProfile(page, 'Tiny', url);
  await expect(modelStatus(page)).toContainText('Nothing is downloaded until you press Download');
  // Only Settings' HEAD for the size: nothing is downloaded before Download.
  expect(server.requests.filter((request) => request.path === '/slow/tiny.gguf' && request.method !== 'HEAD')).toHaveLength(0);

  const usageBefore = await storageUsage(page);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const progress = page.getByRole('progressbar', { name: 'Model download', exact: true });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel download', exact: true })).toBeVisible();
  // Some bytes, not all: then reload in the middle of the download.
  await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 30_000 }).toBeGreaterThan(100_000);
  await expect(page.locator('.local-model-progress-text')).toContainText(new RegExp(`of ${Math.round(server.model.length / 1000)} KB · [\\d.]+ KB/s`));
  await page.reload();

  await openSettings(page);
  await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
  // It went on from where it was, with a Range request, rather than starting over.
  expect(server.requests.some((request) => request.path === '/slow/tiny.gguf' && /^bytes=[1-9]\d*-$/.test(request.range ?? ''))).toBe(true);
  expect(await storageUsage(page)).toBeGreaterThan(usageBefore + server.model.length * 0.9);

  // Still stored after another reload, and usable with no network at all.
  await page.reload();
  await context.setOffline(true);
  await openSettings(page);
  await expect(modelStatus(page)).toContainText(READY);
  await newConversation(page);
  await send(page, 'hello');
  const reply = assistantMessages(page).last();
  // The first token takes a while on a loaded 2-core machine (the engine loads, then reads a long prompt).
  await expect.poll(async () => ((await reply.textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  await expect(reply).toHaveAttribute('data-status', 'stopped');
  const stoppedText = await reply.textContent();
  await expect(reply).toHaveText(stoppedText ?? '');

  // The engine says how it ran: cross-origin isolated, so multi-threaded WebAssembly when there are cores to spare (one
  // compute thread per two cores); no GPU in this browser.
  await openSettings(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await expect(modelStatus(page)).toContainText(cores >= 4 ? 'Runs on the CPU with multi-threaded WebAssembly' : 'Runs on the CPU with single-threaded WebAssembly');
  // The user's own thread count: the next reply loads the engine again with two compute threads.
  const threads = page.getByRole('combobox', { name: 'CPU threads', exact: true });
  await expect(threads).toHaveValue('0');
  await threads.selectOption('2');
  await expect(threads).toHaveValue('2');
  await newConversation(page);
  await send(page, 'hello again');
  await expect.poll(async () => ((await assistantMessages(page).last().textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'stopped');
  await openSettings(page);
  await expect(modelStatus(page)).toContainText('Runs on the CPU with multi-threaded WebAssembly (2 threads)');
  await expect(page.getByRole('combobox', { name: 'CPU threads', exact: true })).toHaveValue('2');
  await context.setOffline(false);

  const usageStored = await storageUsage(page);
  await page.getByRole('button', { name: 'Delete model', exact: true }).click();
  await expect(modelStatus(page)).toContainText('Not on this device');
  // The browser's usage estimate catches up with a deletion asynchronously: poll it.
  await expect.poll(() => storageUsage(page), { timeout: 20_000 }).toBeLessThan(usageStored - server.model.length * 0.9);
});

test('Settings says what the stored model files take, and nothing once the model is deleted', async ({ page }) => {
  await page.goto('/');
  await createInBrowserProfile(page, 'Sized', `${server.url}/tiny.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
  // Measured when Settings opens: leave and come back.
  await page.evaluate(() => (location.hash = '#/'));
  await openSettings(page);
  await expect(page.getByText(/In-browser models take/)).toContainText(`In-browser models take ${Math.round(server.model.length / 1000)} KB.`);

  await page.getByRole('button', { name: 'Delete model', exact: true }).click();
  await expect(modelStatus(page)).toContainText('Not on this device');
  await page.evaluate(() => (location.hash = '#/'));
  await openSettings(page);
  await expect(page.getByRole('heading', { name: 'Your data', exact: true })).toBeVisible();
  await expect(page.getByText(/Conversations take about/)).toBeVisible();
  await expect(page.getByText(/In-browser models take/)).toHaveCount(0);
});

test('stopping a reply of the in-browser model logs no error, and the engine answers the next message', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('worker', (worker) => worker.on('console', (message) => {
    if (message.type() === 'error') errors.push(`worker: ${message.text()}`);
  }));
  await page.goto('/');
  await createInBrowserProfile(page, 'Stopper', `${server.url}/tiny.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
  await newConversation(page);
  await send(page, 'hello');
  await expect.poll(async () => ((await assistantMessages(page).last().textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'stopped');
  // The next reply streams only once the engine has finished cancelling the stopped one, which is when the abort used
  // to surface as an uncaught "Operation aborted".
  await send(page, 'and again');
  await expect(assistantMessages(page)).toHaveCount(2);
  await expect.poll(async () => ((await assistantMessages(page).last().textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'stopped');
  expect(errors).toEqual([]);
});

test("a model with a small context answers a first message without its tools, and says plainly when a message cannot fit", async ({ page }) => {
  await page.goto('/');
  // Its GGUF says 1,024 tokens: the system prompt and a short message fit, the tool definitions do not.
  await createInBrowserProfile(page, 'Small', `${server.url}/small-context.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
  await newConversation(page);
  await send(page, 'hello');
  const reply = assistantMessages(page).last();
  await expect.poll(async () => ((await reply.textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(20);
  // The text is the model's reply, not the refusal this first message used to get.
  await expect(page.getByText('The provider rejected the request.')).toHaveCount(0);
  // The tools were left out to make room, and the user is told so on the reply, not only the model.
  await expect(reply).toContainText(`Tools were left out: this model's context (${SMALL_CONTEXT_TOKENS.toLocaleString('en')} tokens) cannot hold them.`);
  // Stopped only to save time: the reply may have ended by itself meanwhile, and then Stop is gone for good (a loaded
  // CI run waited the whole test out for it). Pressed again until the reply has ended: on a loaded machine a press
  // read as visible once could miss, and the reply then streamed on past a single 10 s wait.
  const stop = page.getByRole('button', { name: 'Stop', exact: true });
  await expect(async () => {
    if (await stop.isVisible()) await stop.click({ timeout: 5_000 }).catch(() => undefined);
    await expect(reply).toHaveAttribute('data-status', /^(stopped|complete)$/, { timeout: 5_000 });
  }).toPass({ timeout: 120_000 });

  // A first message longer than the whole context: no new conversation can help, a larger model can.
  await newConversation(page);
  await send(page, 'Please read all of this carefully. '.repeat(45));
  await expect(page.getByRole('main')).toContainText("This model's context is too small for even one message. Choose a model with a larger context in Settings.", { timeout: 120_000 });
  await expect(page.getByText('The provider rejected the request.')).toHaveCount(0);
});

test('a status read that meets a write of the model\'s record waits for it instead of reporting the model absent', async ({ page }) => {
  // The defect: a status poll that read the record while the download replaced it (a moment with no file, or a file
  // changed under the read) said "Not on this device" and stopped looking. Here the page holds the record's lock and
  // keeps the record away for a second, as a slow write would; the poll must wait for it.
  await page.goto('/');
  const url = `${server.url}/slow/tiny.gguf`;
  await createInBrowserProfile(page, 'Tiny', url);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const progress = page.getByRole('progressbar', { name: 'Model download', exact: true });
  await expect.poll(async () => Number(await progress.getAttribute('max')), { timeout: 30_000 }).toBe(server.model.length);
  const sawAbsent = await page.evaluate(async ({ source, absent }) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
    const key = [...new Uint8Array(digest).slice(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    const status = document.querySelector('.local-model [role="status"]')!;
    let seen = false;
    const observer = new MutationObserver(() => {
      if (status.textContent?.includes(absent)) seen = true;
    });
    observer.observe(status, { subtree: true, childList: true, characterData: true });
    await navigator.locks.request(`parley-model-meta:${key}`, { mode: 'exclusive' }, async () => {
      const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle('parley-models').then((root) => root.getDirectoryHandle(key));
      const text = await (await (await directory.getFileHandle('meta.json')).getFile()).text();
      await directory.removeEntry('meta.json');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const writable = await (await directory.getFileHandle('meta.json', { create: true })).createWritable();
      await writable.write(text);
      await writable.close();
    });
    observer.disconnect();
    return seen;
  }, { source: url, absent: 'Not on this device' });
  expect(sawAbsent).toBe(false);
  await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Delete model', exact: true }).click();
  await expect(modelStatus(page)).toContainText('Not on this device');
});

test('a model split into three gguf-split files downloads every part and runs', async ({ page }) => {
  await page.goto('/');
  await createInBrowserProfile(page, 'Split', `${server.url}/split/tiny-00001-of-00003.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
  for (const part of [1, 2, 3]) expect(server.requests.some((request) => request.path === `/split/tiny-0000${part}-of-00003.gguf`)).toBe(true);
  await newConversation(page);
  await send(page, 'hello');
  await expect.poll(async () => ((await assistantMessages(page).last().textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'stopped');
});

test.describe('before the service worker runs', () => {
  // A first visit's download can start while the service worker is still installing: no service worker at all here.
  test.use({ serviceWorkers: 'block' });

  test("a download puts the engine's files into the service worker's cache, for the offline runs to come", async ({ page }) => {
    await page.goto('/');
    await createInBrowserProfile(page, 'Early', `${server.url}/tiny.gguf`);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await expect(modelStatus(page)).toContainText(READY, { timeout: 30_000 });
    const cached = () => page.evaluate(async () => (await (await caches.open('parley-engine')).keys()).map((request) => new URL(request.url).pathname));
    await expect.poll(cached).toEqual([expect.stringMatching(/\.wasm$/)]);
  });
});

test('a cancelled download leaves nothing behind', async ({ page }) => {
  await page.goto('/');
  await createInBrowserProfile(page, 'Cancelled', `${server.url}/slow/tiny.gguf?cancel`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const progress = page.getByRole('progressbar', { name: 'Model download', exact: true });
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Cancel download', exact: true }).click();
  await expect(modelStatus(page)).toContainText('Not on this device');
  await expect(progress).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download', exact: true })).toBeVisible();
});

test('a web page instead of a model, and a truncated model, each give a clear error', async ({ page }) => {
  await page.goto('/');
  await createInBrowserProfile(page, 'Page', `${server.url}/page.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  // A download's end is as slow as the other downloads' here (30 s) on a loaded machine: CI saw "Downloading…" at 10 s.
  await expect(page.locator('.local-model').getByRole('alert')).toContainText('This is not a GGUF model file', { timeout: 30_000 });

  await createInBrowserProfile(page, 'Cut', `${server.url}/truncated.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(page.locator('.local-model').getByRole('alert')).toContainText('The download is incomplete', { timeout: 30_000 });
  await expect(modelStatus(page)).not.toContainText(READY);

  // A conversation with the broken model says what to do instead of crashing.
  await newConversation(page);
  await send(page, 'hello');
  await expect(page.getByRole('main')).toContainText('press Download');
});

test('with constrained sampling even the random model asks a valid question, and the answer reaches the next step', async ({ page }) => {
  await page.goto('/');
  await createInBrowserProfile(page, 'Asker', `${server.url}/tiny.gguf`);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(modelStatus(page)).toContainText(READY);
  await page.getByRole('checkbox', { name: 'Ask first (constrained question call)', exact: true }).check();
  await expect(page.getByRole('checkbox', { name: 'Ask first (constrained question call)', exact: true })).toBeChecked();

  await newConversation(page);
  await send(page, 'Plan my trip');
  await expect(questionForm(page)).toBeVisible({ timeout: 120_000 });
  // The grammar allows one question with one or two options: pick the first option of each question, then submit.
  const form = questionForm(page);
  for (let question = 0; question < 2 && (await form.getByRole('radio').count()) > 0; question++) {
    const first = form.getByRole('radio').first();
    if (await first.isChecked()) break;
    await first.check();
  }
  await submitButton(page).click();
  await expect(form).toHaveCount(0);
  // The next step runs with the answer in its prompt: the run goes on and new text streams.
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  const after = assistantMessages(page).last();
  const answeredLength = ((await after.textContent()) ?? '').length;
  await expect.poll(async () => ((await after.textContent()) ?? '').length, { timeout: 120_000 }).toBeGreaterThan(answeredLength + 20);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);

  // The question step finished normally, so its speed was measured and is shown with the model.
  await openSettings(page);
  await expect(modelStatus(page)).toContainText(/Last reply: [\d.]+ tokens\/s/);
});

test('on a static host that sends no isolation headers, the service worker makes the app cross-origin isolated', async ({ browser }) => {
  const { createServer } = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const { extname, join, normalize } = await import('node:path');
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.webmanifest': 'application/manifest+json', '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm' };
  const root = join(process.cwd(), 'dist');
  const staticHost = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    readFile(join(root, path)).then(
      (body) => response.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => staticHost.listen(0, '127.0.0.1', resolve));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const { port } = staticHost.address() as { port: number };
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(false);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 30_000 }).toBe('activated');
    await page.reload();
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    // The worker that runs the agent (and the engine) is isolated too.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Add profile', exact: true }).click();
    await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'In-browser' });
    await page.getByRole('textbox', { name: 'Model URL', exact: true }).fill(`${server.url}/tiny.gguf`);
    await page.getByRole('textbox', { name: 'Model URL', exact: true }).blur();
    await expect(modelStatus(page)).toContainText('This page is cross-origin isolated');
  } finally {
    await context.close();
    await new Promise<void>((resolve) => staticHost.close(() => resolve()));
  }
});

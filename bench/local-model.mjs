// The in-browser model (wllama) on the tiny GGUF the tests write themselves, served from localhost: tokens per
// second as the app reports them, and send → first token with the model already stored, against the scripted model's
// send → first token in the same run (the app's own floor). Never fails the benchmark: a problem is a printed reason.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformWithOxc } from 'vite';

const READY = 'Ready (stored on this device).';
const REPLY_TOKENS = 64;

/** The e2e suite's model server and tiny-model writer, compiled on the fly (they import only node: and each other). */
async function startModelServer() {
  const directory = join(tmpdir(), `parley-bench-model-${process.pid}`);
  mkdirSync(directory, { recursive: true });
  for (const name of ['tiny-gguf', 'model-server']) {
    const source = readFileSync(`tests/fixtures/${name}.ts`, 'utf8');
    const { code } = await transformWithOxc(source, `${name}.ts`, { lang: 'ts' });
    writeFileSync(join(directory, `${name}.mjs`), code.replace(/from ['"]\.\/tiny-gguf(\.js)?['"]/g, "from './tiny-gguf.mjs'"));
  }
  return (await import(pathToFileURL(join(directory, 'model-server.mjs')).href)).startModelServer();
}

/** Sends `text` in a new conversation; resolves with ms from Enter to the first visible reply text, and the reply's usage line. */
async function timedReply(page, base, text) {
  await page.goto(`${base}/#/`);
  await page.getByRole('button', { name: 'New conversation', exact: true }).first().click();
  await page.waitForURL(/#\/c\/[^/]+$/);
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill(text);
  await page.evaluate(() => {
    window.__benchFirstText = undefined;
    const log = document.querySelector('[role="log"]');
    const observer = new MutationObserver(() => {
      const reply = [...log.querySelectorAll('article')].at(-1);
      if (reply?.getAttribute('aria-label') === 'Parley' && (reply.querySelector('.markdown')?.textContent ?? '').trim() !== '') {
        window.__benchFirstText = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(log, { subtree: true, childList: true, characterData: true });
    window.addEventListener('keydown', (event) => event.key === 'Enter' && (window.__benchEnterAt ??= performance.now()), { capture: true, once: true });
    window.__benchEnterAt = undefined;
  });
  await box.press('Enter');
  await page.waitForFunction(() => window.__benchFirstText !== undefined, undefined, { timeout: 120_000, polling: 20 });
  const firstToken = await page.evaluate(() => window.__benchFirstText - window.__benchEnterAt);
  await page.locator('article[aria-label="Parley"]').last().and(page.locator('[data-status="complete"], [data-status="stopped"], [data-status="error"]')).waitFor({ timeout: 180_000 });
  const usage = (await page.locator('article[aria-label="Parley"]').last().locator('.message-usage').textContent().catch(() => '')) ?? '';
  return { firstToken, usage };
}

export async function measureLocalModel(browser, base, rounds) {
  let server;
  const context = await browser.newContext();
  try {
    server = await startModelServer();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const scripted = [];
    for (let round = 0; round < rounds; round += 1) scripted.push((await timedReply(page, base, 'Hello')).firstToken);

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Add profile', exact: true }).click();
    await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'In-browser' });
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Tiny');
    await page.getByRole('textbox', { name: 'Model URL', exact: true }).fill(`${server.url}/tiny.gguf`);
    await page.getByRole('textbox', { name: 'Model URL', exact: true }).blur();
    // The tiny model's random weights never end a reply by themselves: each one stops at this many tokens.
    await page.getByRole('spinbutton', { name: 'Max output tokens', exact: true }).fill(String(REPLY_TOKENS));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await page.locator('.local-model').getByRole('status').filter({ hasText: READY }).waitFor({ timeout: 120_000 });
    // A profile just added is the default for new conversations (README, "Accessible names": no "Use Tiny" then).
    await page.getByText('New conversations will use Tiny.', { exact: true }).waitFor();
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const threads = Math.max(1, Math.min(4, Math.floor(cores / 2)));
    const isolated = await page.evaluate(() => self.crossOriginIsolated);

    // The first reply loads the engine and the model; the rounds after it are "model already loaded".
    const cold = await timedReply(page, base, 'Hello');
    const warm = [];
    for (let round = 0; round < rounds; round += 1) warm.push(await timedReply(page, base, 'Hello'));
    const rate = (usage) => Number(/([\d.]+) tokens\/s/.exec(usage)?.[1] ?? Number.NaN);
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    // The same replies with every core as a compute thread (Settings → "CPU threads"), where the page is isolated.
    let multi;
    if (isolated && cores >= 2 && cores !== threads) {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('combobox', { name: 'CPU threads', exact: true }).selectOption(String(Math.min(cores, 8)));
      await page.locator('.local-model').getByRole('status').filter({ hasText: READY }).waitFor();
      await timedReply(page, base, 'Hello'); // loads the engine again with the new count
      const runs = [];
      for (let round = 0; round < rounds; round += 1) runs.push(await timedReply(page, base, 'Hello'));
      multi = { threads: Math.min(cores, 8), tokensPerSecond: median(runs.map((run) => rate(run.usage))) };
    }
    return {
      threads,
      multi,
      isolated,
      scriptedFirstToken: median(scripted),
      coldFirstToken: cold.firstToken,
      warmFirstToken: median(warm.map((run) => run.firstToken)),
      tokensPerSecond: median(warm.map((run) => rate(run.usage))),
    };
  } catch (error) {
    return { skipped: `in-browser model round failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  } finally {
    await context.close();
    await server?.close();
  }
}

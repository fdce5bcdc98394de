// First-load JavaScript: every script a cold page load fetches, the page's and its agent worker's (and their dynamic
// imports) alike, recorded from the browser's own responses until the first screen is up and the network is idle,
// each gzipped as a server would.
import { gzipSync } from 'node:zlib';

export const FIRST_LOAD_BUDGET_KIB = 90;
/** Every script fetched from a cold load to the first reply from the built-in model. */
export const FIRST_REPLY_TARGET_KIB = 100;

/**
 * Loads `origin` cold in a fresh context of `browser` (no cache, no service worker: a first visit) and resolves with
 * the gzip size (KiB) of every JavaScript response the page and its workers received, and their total.
 */
export async function firstLoadJs(browser, origin) {
  return scriptsFetched(browser, origin, async (page) => {
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
  });
}

/**
 * What a first conversation costs: every script fetched from a cold load, through "New conversation" and a message sent,
 * until the built-in model's reply is complete and shown with its Markdown and its question's form (each loads with the
 * first reply that shows one). The network went idle once already after the load, so waiting for idle again returns at
 * once: what the reply shows is what is waited for. (A tool call's card the reply shows while it streams may or may not
 * be fetched by then.)
 */
export async function firstReplyJs(browser, origin) {
  return scriptsFetched(browser, origin, async (page) => {
    await page.getByRole('button', { name: 'New conversation', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Hello');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = page.getByRole('log').getByRole('article', { name: 'Parley', exact: true }).first();
    await reply.and(page.locator('[data-status="complete"]')).waitFor();
    await reply.locator('.markdown').first().waitFor();
    await page.getByRole('form', { name: 'Question from Parley', exact: true }).waitFor();
  });
}

async function scriptsFetched(browser, origin, until) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const responses = [];
  // Context-level, so the dedicated worker's script and its imports count as well as the page's.
  context.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === origin && url.pathname.endsWith('.js')) responses.push(response);
  });
  try {
    const page = await context.newPage();
    await page.goto(origin);
    await until(page);
    await page.waitForLoadState('networkidle');
    const files = new Map();
    for (const response of responses) {
      const file = new URL(response.url()).pathname.replace(/^\//, '');
      if (!files.has(file)) files.set(file, gzipSync(await response.body()).length / 1024);
    }
    const sizes = [...files].map(([file, gzipKiB]) => ({ file, gzipKiB })).sort((a, b) => b.gzipKiB - a.gzipKiB);
    return { files: sizes, totalKiB: sizes.reduce((sum, entry) => sum + entry.gzipKiB, 0) };
  } finally {
    await context.close();
  }
}

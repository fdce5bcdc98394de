// Hostile inputs: nothing may freeze the page for more than 200 ms. Each figure is the longest main-thread
// task while the input is handled, through the UI as a user would meet it.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPage, loadAfresh } from './harness.mjs';
import { addServerProfile, conversationWithServer } from './parley.mjs';

export const MANY_CONVERSATIONS = 10_000;

/**
 * The measurements, `repetitions` times each; every import into a fresh context (an empty IndexedDB). `parts` chooses
 * some of them: 'stream' (the nested-list reply), 'import' (10,000 conversations), 'open' (the finished big replies).
 */
export async function measureHostile(browser, base, provider, repetitions, parts = ['stream', 'import', 'open']) {
  const streams = [];
  if (parts.includes('stream')) {
    await inFreshPage(browser, base, async (page) => {
      await addServerProfile(page, base, provider.url);
      for (let round = 0; round < repetitions; round += 1) streams.push(await measureNestedListStream(page, base, provider));
    });
  }
  const imports = [];
  if (parts.includes('import')) {
    for (let round = 0; round < repetitions; round += 1) await inFreshPage(browser, base, async (page) => imports.push(await measureManyImport(page, base, MANY_CONVERSATIONS)));
  }
  const bigMessages = {};
  if (parts.includes('open')) await measureBigMessageOpens(browser, base, repetitions, bigMessages);
  return { streams, imports, bigMessages };
}

/** Each finished big reply opened `repetitions` times, the sizes taking turns round by round. */
async function measureBigMessageOpens(browser, base, repetitions, bigMessages) {
  await inFreshPage(browser, base, async (page) => {
    await importFile(page, base, 'bench-big-messages.json', bigMessagesFile(BIG_MESSAGE_LINES));
    for (const label of Object.keys(BIG_MESSAGE_LINES)) bigMessages[label] = [];
    for (let round = 0; round < repetitions; round += 1) {
      for (const label of Object.keys(BIG_MESSAGE_LINES)) bigMessages[label].push(await measureBigMessageOpen(page, base, bigMessageConversation(label)));
    }
  });
}

/** The finished replies of nested lists: about 1 MB, 5 MB and 10 MB (51 characters a line on average). */
export const BIG_MESSAGE_LINES = { '1 MB': 20_000, '5 MB': 100_000, '10 MB': 200_000 };

const bigMessageConversation = (label) => `bench-big-${label.replace(/\s/g, '')}`;

/** One conversation per size, each a question and one finished reply of nested lists. */
function bigMessagesFile(sizes, now = 1_700_000_000_000) {
  const conversations = Object.entries(sizes).map(([label, lines], index) => {
    const id = bigMessageConversation(label);
    const message = (seq, role, text) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role, blocks: [{ type: 'text', text }], status: 'complete', createdAt: now + seq, updatedAt: now + seq });
    return {
      conversation: { id, title: `Big reply ${label}`, createdAt: now, updatedAt: now + index, runState: 'idle', completedSteps: 1 },
      messages: [message(0, 'user', 'A very long nested list, please.'), message(1, 'assistant', nestedListText(lines))],
    };
  });
  return { format: 'parley-export', version: 1, exportedAt: now, conversations };
}

async function importFile(page, base, name, content) {
  await page.goto(`${base}/#/`);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const file = join(tmpdir(), name);
  writeFileSync(file, JSON.stringify(content));
  await page.getByLabel('Import conversations').setInputFiles(file);
  await page.locator('.import-result').waitFor({ timeout: 300_000 });
}

/**
 * Opens a conversation whose reply is one huge finished message, the first open after a fresh load (see measureOpen):
 * the longest task from the click until idle.
 */
async function measureBigMessageOpen(page, base, conversationId) {
  await loadAfresh(page, base, `${base}/#/`);
  const link = page.locator(`a[href="#/c/${conversationId}"]`);
  await link.waitFor();
  await page.evaluate(() => window.__bench.untilIdle());
  await page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= event.timeStamp), { capture: true, once: true });
  });
  await link.click();
  return page.evaluate(async () => {
    const bench = window.__bench;
    const painted = await bench.untilPainted(() => {
      const articles = document.querySelectorAll('[role="log"] article');
      const last = articles[articles.length - 1];
      // Formatted, or shown as plain text (a reply too deeply nested or too long to format is).
      return last?.getAttribute('aria-label') === 'Parley' && (last.querySelector('.markdown, .message-text')?.textContent ?? '').includes('item 0');
    }, 120_000);
    const idle = await bench.untilIdle();
    const from = window.__benchClickAt;
    return { clickToPainted: painted - from, longTasks: bench.longTasksBetween(from, idle) };
  });
}

async function inFreshPage(browser, base, body) {
  const { context, page } = await freshPage(browser, base);
  try {
    await body(page);
  } finally {
    await context.close();
  }
}

/** 15,000 lines of lists nested up to 40 deep: 768,889 characters (the "769 KB nested-list reply"). */
export function nestedListText(lines = 15_000) {
  return Array.from({ length: lines }, (_, index) => `${'  '.repeat(index % 40)}- item ${index}`).join('\n');
}

/** An export file of `count` small conversations (a question and an answer each). */
export function manyConversationsFile(count, now = 1_700_000_000_000) {
  const conversations = [];
  for (let index = 0; index < count; index += 1) {
    const id = `bench-many-${index}`;
    const message = (seq, role, text) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role, blocks: [{ type: 'text', text }], status: 'complete', createdAt: now + seq, updatedAt: now + seq });
    conversations.push({
      conversation: { id, title: `Imported conversation ${index}`, createdAt: now, updatedAt: now + index, runState: 'idle', completedSteps: 1 },
      messages: [message(0, 'user', `Question ${index}: what is the plan for today?`), message(1, 'assistant', `Here is **a plan** for number ${index}:\n\n- first\n- second\n- third`)],
    });
  }
  return { format: 'parley-export', version: 1, exportedAt: now, conversations };
}

/** Streams the nested-list reply from the provider server at full speed: long tasks from Enter until it is complete and painted. */
export async function measureNestedListStream(page, base, provider) {
  await conversationWithServer(page, base);
  provider.enqueue({ text: nestedListText(), burst: true });
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill('Write a deeply nested list.');
  await page.evaluate(() => {
    window.__benchEnterAt = undefined;
    document.addEventListener('keydown', (event) => event.key === 'Enter' && (window.__benchEnterAt ??= event.timeStamp), { capture: true });
  });
  await box.press('Enter');
  return page.evaluate(async () => {
    const bench = window.__bench;
    const painted = await bench.untilPainted(() => {
      const articles = document.querySelectorAll('[role="log"] article');
      const last = articles[articles.length - 1];
      return last?.getAttribute('aria-label') === 'Parley' && last.getAttribute('data-status') === 'complete';
    });
    const idle = await bench.untilIdle();
    const from = window.__benchEnterAt;
    return { enterToComplete: painted - from, longTasks: bench.longTasksBetween(from, idle) };
  });
}

/** Imports `count` conversations through Settings → Import conversations: long tasks from choosing the file until the result is painted. */
export async function measureManyImport(page, base, count) {
  await page.goto(`${base}/#/`);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  // A path, not a buffer: Playwright hands a buffer to the page as base64 and decodes it in the page's main thread, in
  // the task that fires `change` (about 1 s for this file), which a user choosing a file never pays.
  const file = join(tmpdir(), `parley-bench-many-${count}.json`);
  writeFileSync(file, JSON.stringify(manyConversationsFile(count)));
  await page.evaluate(() => {
    window.__benchChosenAt = undefined;
    document.addEventListener('change', (event) => (window.__benchChosenAt ??= event.timeStamp), { capture: true, once: true });
  });
  await page.getByLabel('Import conversations').setInputFiles(file);
  return page.evaluate(async () => {
    const bench = window.__bench;
    const painted = await bench.untilPainted(() => document.querySelector('.import-result') !== null, 300_000);
    const idle = await bench.untilIdle();
    const from = window.__benchChosenAt;
    const result = [...document.querySelectorAll('.import-result')].map((element) => element.textContent).join(' ');
    return { chosenToResult: painted - from, longTasks: bench.longTasksBetween(from, idle), result };
  });
}

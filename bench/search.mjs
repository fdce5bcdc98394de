// Search across conversations: query latency in the worker at 1k, 10k and 100k messages (10 per
// conversation, so 100k is 10,000 conversations), and the first search's cost (loading the index's code and building
// the index from IndexedDB). Each size is imported into a fresh context; queries are typed into "Search conversations" as a
// user would, and the worker's own time is read from its performance measures (src/worker/search/conversation-search.ts).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPage, median } from './harness.mjs';

export const SEARCH_SIZES = [1000, 10_000, 100_000];
const MESSAGES_PER_CONVERSATION = 10;
const SEARCH_MEASURE = 'parley:conversations.search';
const BUILD_MEASURE = 'parley:conversations.search.build';

/** A vocabulary of 3,000 made-up words, drawn with a skew (a few common, most rare) as real text is. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sa', 'tu', 'vel', 'dor', 'pin', 'qua', 'ser', 'nox', 'bri', 'fen', 'gal'];
const VOCABULARY = Array.from({ length: 3000 }, (_, index) => {
  let word = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor(rest / SYLLABLES.length)) word += SYLLABLES[rest % SYLLABLES.length];
  return word;
});

/** The queries: a word in most messages, a rare word, two words together, the start of a word, a word in one message. */
export const QUERIES = { common: VOCABULARY[0], rare: VOCABULARY[2000], 'two words': `${VOCABULARY[1]} ${VOCABULARY[40]}`, prefix: VOCABULARY[300].slice(0, 4), unique: 'zeppelinmarker' };

function searchFile(count, now = 1_700_000_000_000) {
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)];
  const conversations = [];
  for (let first = 0; first < count; first += MESSAGES_PER_CONVERSATION) {
    const id = `search-${first / MESSAGES_PER_CONVERSATION}`;
    const messages = Array.from({ length: MESSAGES_PER_CONVERSATION }, (_, seq) => {
      const text = Array.from({ length: 30 }, word).join(' ') + (first + seq === Math.floor(count / 3) ? ' zeppelinmarker' : '');
      return { id: `${id}-m${seq}`, conversationId: id, seq, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text }], status: 'complete', createdAt: now + seq, updatedAt: now + seq };
    });
    conversations.push({ conversation: { id, title: `${word()} ${word()} ${first}`, createdAt: now, updatedAt: now + first, runState: 'idle', completedSteps: 5 }, messages });
  }
  return { format: 'parley-export', version: 1, exportedAt: now, conversations };
}

/** The worker's last measure of `name` (its duration), once it is newer than `after`. */
async function workerMeasure(page, name, after) {
  const worker = page.workers()[0];
  if (!worker) throw new Error('No worker in the page');
  // Time, not attempts: the worker answers between the build's slices now, so 600 quick attempts end before a long build.
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    const entry = await worker.evaluate((measure) => performance.getEntriesByName(measure).map((item) => ({ startTime: item.startTime, duration: item.duration, detail: item.detail })).at(-1), name);
    if (entry && entry.startTime > after) return entry;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No ${name} measure in the worker`);
}

async function search(page, query, after) {
  const box = page.getByRole('searchbox', { name: 'Search conversations', exact: true });
  await box.fill('');
  await box.fill(query);
  return workerMeasure(page, SEARCH_MEASURE, after);
}

/** For each size: the first search (with the build), and each query's median worker time over `repetitions`. */
export async function measureSearch(browser, base, repetitions, log = () => {}) {
  const figures = {};
  for (const count of SEARCH_SIZES) {
    const { context, page } = await freshPage(browser, base);
    try {
      log(`search: importing ${count} messages`);
      await page.goto(`${base}/#/`);
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const file = join(tmpdir(), `parley-bench-search-${count}.json`);
      writeFileSync(file, JSON.stringify(searchFile(count)));
      await page.getByLabel('Import conversations').setInputFiles(file);
      await page.locator('.import-result').waitFor({ timeout: 600_000 });
      await page.goto(`${base}/#/`);
      let last = 0;
      const first = await search(page, QUERIES.unique, last);
      last = first.startTime;
      const build = await workerMeasure(page, BUILD_MEASURE, 0);
      await page.getByRole('list', { name: 'Matching conversations', exact: true }).getByRole('link').first().waitFor();
      const queries = {};
      for (const [label, query] of Object.entries(QUERIES)) {
        const times = [];
        for (let round = 0; round < repetitions; round += 1) {
          const entry = await search(page, query, last);
          last = entry.startTime;
          times.push(entry.duration);
        }
        queries[label] = median(times);
      }
      // The longest the build kept the worker from anything else (opening a conversation, answering a question).
      const longestSlice = build.detail?.longestSlice ?? build.duration;
      const working = build.detail?.working;
      figures[count] = { firstSearch: first.duration, build: build.duration, longestSlice, working, queries };
      log(`search at ${count}: first ${first.duration.toFixed(0)} ms (build ${build.duration.toFixed(0)} ms, ${working === undefined ? '' : `of which working ${working.toFixed(0)} ms, `}longest slice ${longestSlice.toFixed(0)} ms), ${Object.entries(queries).map(([label, ms]) => `${label} ${ms.toFixed(1)} ms`).join(', ')}`);
    } finally {
      await context.close();
    }
  }
  return figures;
}

// Parley's measurements, driven through its UI as a user would (Settings, the conversation list, the composer).
import { countWorkerTransactions, droppedFrames, freshPage, heapAndDom, loadAfresh, measureLoad, sleep } from './harness.mjs';
import { conversationId, endMarker, exportFile } from './seed.mjs';

export const STREAM_END = ' bench-stream-end';
const ANSWERED_END = 'Thanks, noted. bench-answer-end';
export const PROFILE_NAME = 'Bench server';

const newConversationButton = (page) => page.getByRole('button', { name: 'New conversation', exact: true }).first();

/** The app until "New conversation" is painted, against the blank page, in a fresh context each time. */
export async function measureAppLoad(browser, base, repetitions) {
  const blank = [];
  const app = [];
  for (let round = 0; round < repetitions; round += 1) {
    const { context, page } = await freshPage(browser, base);
    try {
      const [blankMs, appMs] = await measureLoad(page, base, `${base}/`, 'button.new-conversation');
      blank.push(blankMs);
      app.push(appMs);
    } finally {
      await context.close();
    }
  }
  return { blank, app };
}

/**
 * Baselines on the app's origin: a raw fetch to the provider server, a raw IndexedDB put (one
 * transaction each), a raw postMessage round trip to an echo worker. Medians, in ms.
 */
export async function measureBaselines(page, base, providerUrl, rounds) {
  // The fetch runs from the app's own page: Chromium refuses loopback requests from a page Playwright made up.
  await page.goto(`${base}/`);
  await newConversationButton(page).waitFor();
  const rawFetch = await page.evaluate(async ({ providerUrl, rounds }) => {
    const times = [];
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      await fetch(`${providerUrl}/__control/ping`).then((response) => response.text());
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  }, { providerUrl, rounds });
  // The blank page allows a blob: worker (the app's CSP does not).
  await page.goto(`${base}/bench-blank`);
  const others = await page.evaluate(async ({ rounds }) => {
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const timeEach = async (body) => {
      const times = [];
      for (let round = 0; round < rounds; round += 1) {
        const started = performance.now();
        await body(round);
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const database = await new Promise((resolve, reject) => {
      const request = indexedDB.open('bench-raw', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('records', { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const rawPut = await timeEach((round) => new Promise((resolve, reject) => {
      const transaction = database.transaction('records', 'readwrite');
      transaction.objectStore('records').put({ id: `r${round}`, title: 'New conversation', createdAt: Date.now(), runState: 'idle' });
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    }));
    database.close();
    const echo = new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => postMessage(e.data)'], { type: 'text/javascript' })));
    const postMessageRoundTrip = await timeEach((round) => new Promise((resolve) => {
      echo.onmessage = () => resolve();
      echo.postMessage({ kind: 'command', id: String(round), command: { type: 'conversation.list' } });
    }));
    echo.terminate();
    return { rawPut, postMessageRoundTrip };
  }, { rounds });
  return { rawFetch, ...others };
}

/** Imports one export file holding a conversation of each size, through Settings → Import conversations. */
export async function seedThroughImport(page, base, sizes) {
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const file = { name: 'bench-export.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exportFile(sizes))) };
  await page.getByLabel('Import conversations').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: /Imported \d+ conversation/ }).waitFor({ timeout: 300_000 });
}

/**
 * The first open after a load: loads the app afresh (a new document and worker, as NextChat is measured), then opens the
 * seeded `count`-message conversation by clicking its link once the page is idle: click → conversation.open sent to the
 * worker, → its answer, → the last message painted, then → the main thread idle. Also the longest task meanwhile, the JS heap and the DOM size.
 */
export async function measureOpen(page, base, count) {
  await loadAfresh(page, base, `${base}/#/`);
  await newConversationButton(page).waitFor();
  const link = page.locator(`a[href="#/c/${conversationId(count)}"]`);
  await link.waitFor();
  await page.evaluate(() => window.__bench.untilIdle());
  await page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= event.timeStamp), { capture: true, once: true });
  });
  await link.click();
  const timing = await page.evaluate(async (marker) => {
    const bench = window.__bench;
    const painted = await bench.untilPainted(() => {
      const articles = document.querySelectorAll('[role="log"] article');
      return articles.length > 0 && articles[articles.length - 1].textContent.includes(marker);
    });
    const idle = await bench.untilIdle();
    const from = window.__benchClickAt;
    const open = [...bench.opens.values()].find((candidate) => candidate.sent >= from);
    return { sent: open.sent - from, answered: open.answered - from, painted: painted - from, idle: idle - from, longTasks: bench.longTasksBetween(from, idle) };
  }, endMarker(count));
  return { ...timing, ...(await heapAndDom(page)) };
}

/** Adds an OpenAI-compatible profile for the provider server through Settings, as a user would. */
export async function addServerProfile(page, base, providerUrl) {
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'OpenAI-compatible' });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(PROFILE_NAME);
  await page.getByRole('textbox', { name: 'Base URL', exact: true }).fill(`${providerUrl}/v1`);
  await page.getByLabel('API key', { exact: true }).fill('sk-bench-0000');
  await page.getByRole('combobox', { name: 'Model', exact: true }).or(page.getByRole('textbox', { name: 'Model', exact: true })).fill('test-model');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved.', { exact: true }).waitFor();
}

/** A new conversation talking to the provider server's profile. */
export async function conversationWithServer(page, base) {
  await page.goto(`${base}/#/`);
  await newConversationButton(page).click();
  await page.waitForURL(/#\/c\/[^/]+$/);
  const select = page.getByRole('combobox', { name: 'Model profile', exact: true });
  await select.selectOption({ label: PROFILE_NAME });
  await page.waitForFunction((name) => [...document.querySelectorAll('select')].some((element) => element.selectedOptions[0]?.textContent === name), PROFILE_NAME);
}

export function chatRequests(provider) {
  return provider.requests.filter((request) => request.method === 'POST' && /\/chat\/completions$/.test(request.path));
}

/**
 * A `tokens`-token reply from the provider server at full speed: Enter → the last token painted, against the
 * server's own time from request to last byte. Long tasks and dropped frames while it streams.
 */
export async function measureStream(page, base, provider, tokens, timeoutMs = 180_000) {
  await conversationWithServer(page, base);
  provider.enqueue({ tokens, tokensEnd: STREAM_END, burst: true });
  const before = chatRequests(provider).length;
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill('Write a very long answer.');
  await page.evaluate(() => {
    window.__benchEnterAt = undefined;
    document.addEventListener('keydown', (event) => event.key === 'Enter' && (window.__benchEnterAt ??= event.timeStamp), { capture: true });
    window.__bench.startFrames();
  });
  await box.press('Enter');
  const timing = await page.evaluate(async ({ marker, timeoutMs }) => {
    const bench = window.__bench;
    // The reply is whole once it is marked complete (the UI renders only the first 100,000 characters of a long
    // reply, so the last token itself may never be in the page). The check runs every frame on the main thread the
    // app renders on, so it reads only the last rendered block's text, never the whole reply's.
    const painted = await bench.untilPainted(() => {
      const articles = document.querySelectorAll('[role="log"] article');
      const last = articles[articles.length - 1];
      if (last === undefined || last.getAttribute('aria-label') !== 'Parley') return false;
      if (last.getAttribute('data-status') === 'complete') return true;
      const blocks = last.querySelectorAll('.markdown');
      return blocks.length > 0 && (blocks[blocks.length - 1].lastElementChild?.textContent ?? '').includes(marker);
    }, timeoutMs, { onMutation: true });
    const frames = bench.stopFrames();
    const from = window.__benchEnterAt;
    return { from, painted, frames, longTasks: bench.longTasksBetween(from, painted), timeOrigin: performance.timeOrigin };
  }, { marker: STREAM_END.trim(), timeoutMs });
  await waitFor(() => chatRequests(provider)[before]?.answeredAt !== undefined);
  const request = chatRequests(provider)[before];
  const offset = await clockOffset(page, provider.url);
  const enterAt = timing.timeOrigin + timing.from + offset;
  return {
    enterToPainted: timing.painted - timing.from,
    serverSend: request.answeredAt - request.receivedAt,
    // Where the rest goes: Enter → the request at the server, and the server's last byte → the last token painted.
    enterToRequest: request.receivedAt - enterAt,
    serverDoneToPainted: timing.timeOrigin + timing.painted + offset - request.answeredAt,
    longTasks: timing.longTasks,
    frames: droppedFrames(timing.frames, timing.from, timing.painted),
  };
}

/**
 * A message sent as soon as a new conversation's composer shows, after a fresh load, to the default profile (the
 * provider server's: add it first): Enter → the request at the server, and how many scripts the page and its worker
 * began to fetch after Enter (code the send waited for).
 */
export async function measureFirstSend(page, base, provider) {
  await loadAfresh(page, base, `${base}/#/`);
  await newConversationButton(page).click();
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill('Hello');
  provider.enqueue({ text: 'Hello back. bench-first-send-end' });
  const before = chatRequests(provider).length;
  const scripts = [];
  const onRequest = (request) => new URL(request.url()).pathname.endsWith('.js') && scripts.push(new URL(request.url()).pathname);
  await page.evaluate(() => {
    window.__benchEnterAt = undefined;
    document.addEventListener('keydown', (event) => event.key === 'Enter' && (window.__benchEnterAt ??= performance.timeOrigin + event.timeStamp), { capture: true });
  });
  page.context().on('request', onRequest);
  try {
    await box.press('Enter');
    await waitFor(() => chatRequests(provider).length > before);
  } finally {
    page.context().off('request', onRequest);
  }
  const enterAt = await page.evaluate(() => window.__benchEnterAt);
  const offset = await clockOffset(page, provider.url);
  await page.locator('article[aria-label="Parley"][data-status="complete"]').filter({ hasText: 'bench-first-send-end' }).waitFor({ timeout: 60_000 });
  return { enterToRequest: chatRequests(provider)[before].receivedAt - offset - enterAt, scriptsAfterEnter: scripts };
}

/**
 * One question round: the model asks, the page is reloaded (→ the pending form painted), the user answers, and the
 * time from the Submit click until the next model request reaches the server is taken.
 */
export async function measureQuestionRound(page, base, provider) {
  await conversationWithServer(page, base);
  const question = { header: 'Pick', question: 'Which one should it be?', options: [{ label: 'Alpha' }, { label: 'Beta' }] };
  provider.enqueue({ text: 'One question first.', toolCalls: [{ name: 'question', args: { questions: [question] } }] }, { text: ANSWERED_END });
  const form = page.getByRole('form', { name: 'Question from Parley', exact: true });
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Ask me something.');
  await page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
  await form.waitFor();
  // Let the worker commit the pause before the reload.
  await sleep(300);

  await page.evaluate(() => sessionStorage.setItem('bench-watch', 'form[aria-label="Question from Parley"]'));
  await page.reload();
  await page.waitForFunction(() => window.__bench?.watchedAt !== undefined, undefined, { timeout: 60_000, polling: 50 });
  const reloadToForm = await page.evaluate(() => window.__bench.watchedAt);
  await page.evaluate(() => sessionStorage.removeItem('bench-watch'));

  await form.getByRole('radio', { name: 'Alpha' }).check();
  const readTransactions = await countWorkerTransactions(page);
  const before = chatRequests(provider).length;
  await page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= performance.timeOrigin + event.timeStamp), { capture: true, once: true });
  });
  await form.getByRole('button', { name: 'Submit answers' }).click();
  await waitFor(() => chatRequests(provider).length > before);
  // Begun from the click until the request arrived (the reply's first write is begun before the request, not waited for).
  const transactions = await readTransactions();
  const clickAt = await page.evaluate(() => window.__benchClickAt);
  const offset = await clockOffset(page, provider.url);
  const submitToRequest = chatRequests(provider)[before].receivedAt - offset - clickAt;
  await page.waitForFunction((text) => document.querySelector('[role="log"]')?.textContent.includes(text), ANSWERED_END, { timeout: 60_000 });
  return { reloadToForm, submitToRequest, transactions: transactions.all, writeTransactions: transactions.write };
}

async function waitFor(check, timeoutMs = 60_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await sleep(2);
  }
}


/**
 * How far the server's clock is ahead of the page's (ms), NTP-style: of several pings, the one with the shortest round
 * trip, assuming its request took half of it. Two processes' wall clocks can disagree by more than the path measured.
 */
export async function clockOffset(page, providerUrl) {
  return page.evaluate(async (url) => {
    let best = { roundTrip: Infinity, offset: 0 };
    for (let round = 0; round < 15; round += 1) {
      const sent = performance.timeOrigin + performance.now();
      const { receivedAt } = await fetch(`${url}/__control/ping`).then((response) => response.json());
      const received = performance.timeOrigin + performance.now();
      if (received - sent < best.roundTrip) best = { roundTrip: received - sent, offset: receivedAt - (sent + received) / 2 };
    }
    return best.offset;
  }, providerUrl);
}

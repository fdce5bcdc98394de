// OPTIONAL comparison: the same load, long-conversation and streaming measurements against a served NextChat static
// export (ChatGPTNextWeb, `yarn export`), given by --nextchat-url. Builds nothing. NextChat has no import a script
// can drive reliably across its versions, so its persisted stores are written before it loads (the shapes its
// zustand stores persist: localStorage and idb-keyval's "keyval-store"). Every step that fails is reported as
// skipped with the reason; the comparison never fails the Parley run.
import { droppedFrames, freshPage, heapAndDom, loadAfresh, measureLoad, sleep } from './harness.mjs';

const CHAT_STORE = 'chat-next-web-store';
const STREAM_END = ' bench-stream-end';
const endMarker = (count) => `bench-end-${count}`;
const topic = (count) => `bench ${count} messages`;

function mask() {
  return {
    id: 'bench-mask', avatar: 'gpt-bot', name: 'bench', context: [], syncGlobalConfig: true, lang: 'en', builtin: false, createdAt: 0, plugin: [],
    modelConfig: {
      model: 'gpt-4o-mini', providerName: 'OpenAI', temperature: 0.5, top_p: 1, max_tokens: 4000, presence_penalty: 0, frequency_penalty: 0,
      sendMemory: false, historyMessageCount: 4, compressMessageLengthThreshold: 1_000_000, compressModel: '', compressProviderName: '',
      enableInjectSystemPrompts: false, template: '{{input}}', size: '1024x1024', quality: 'standard', style: 'vivid',
    },
  };
}

function session(count, index) {
  const messages = [];
  for (let message = 0; message < count; message += 1) {
    const role = message % 2 === 0 ? 'user' : 'assistant';
    const text = role === 'user' ? `Question number ${message / 2 + 1}: could you explain this part again?` : `Here is a **short** answer with \`code\`.\n\nReply ${message}.`;
    messages.push({ id: `s${count}-m${message}`, role, content: message === count - 1 ? `${text} ${endMarker(count)}` : text, date: new Date(1_700_000_000_000 + message * 1000).toLocaleString(), streaming: false });
  }
  return {
    id: `bench-session-${count}-${index}`, topic: count === 0 ? 'bench stream' : topic(count), memoryPrompt: '', messages,
    stat: { tokenCount: 0, wordCount: 0, charCount: 0 }, lastUpdate: Date.now() - index, lastSummarizeIndex: 0, mask: mask(),
  };
}

/** The persisted stores: an empty chat first (current, for streaming), then the long ones; the provider server as endpoint. */
function storesFor(providerUrl, sizes) {
  const chat = { state: { sessions: [session(0, 0), ...sizes.map((count, index) => session(count, index + 1))], currentSessionIndex: 0, lastInput: '' }, version: 3.3 };
  const access = { state: { useCustomConfig: true, provider: 'OpenAI', openaiUrl: providerUrl, openaiApiKey: 'sk-bench-0000', accessCode: '' }, version: 2 };
  const config = { state: { enableAutoGenerateTitle: false, submitKey: 'Enter', sendPreviewBubble: false, dontShowMaskSplashScreen: true, hideBuiltinMasks: true }, version: 4.1 };
  return { [CHAT_STORE]: JSON.stringify(chat), 'access-control': JSON.stringify(access), 'app-config': JSON.stringify(config) };
}

async function writeStores(page, stores) {
  await page.evaluate(async (entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    const database = await new Promise((resolve, reject) => {
      const request = indexedDB.open('keyval-store');
      request.onupgradeneeded = () => request.result.createObjectStore('keyval');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    if (database.objectStoreNames.contains('keyval')) {
      await new Promise((resolve, reject) => {
        const transaction = database.transaction('keyval', 'readwrite');
        for (const [key, value] of Object.entries(entries)) transaction.objectStore('keyval').put(value, key);
        transaction.oncomplete = resolve;
        transaction.onerror = () => reject(transaction.error);
      });
    }
    database.close();
  }, stores);
}

const reason = (error) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/** Runs the NextChat measurements; each figure is a number, or `{ skipped: reason }`. */
export async function measureNextChat(browser, url, provider, { sizes, tokens, repetitions }) {
  const origin = new URL(url).origin;
  const results = { load: [], blank: [], open: {}, stream: [] };
  for (let round = 0; round < repetitions.load; round += 1) {
    const { context, page } = await freshPage(browser, origin, { routeBlank: true });
    try {
      const [blank, loaded] = await measureLoad(page, origin, url, 'textarea');
      results.blank.push(blank);
      results.load.push(loaded);
    } catch (error) {
      results.loadSkipped = reason(error);
    } finally {
      await context.close();
    }
  }
  const { context, page } = await freshPage(browser, origin, { routeBlank: true });
  try {
    await page.goto(`${origin}/bench-blank`);
    await writeStores(page, storesFor(provider.url, sizes));
    for (const count of sizes) {
      const runs = [];
      try {
        for (let round = 0; round < repetitions.open(count); round += 1) runs.push(await openSession(page, url, count));
        results.open[count] = runs;
      } catch (error) {
        results.open[count] = { skipped: reason(error) };
      }
    }
    try {
      for (let round = 0; round < repetitions.stream; round += 1) results.stream.push(await stream(page, url, provider, tokens));
    } catch (error) {
      results.streamSkipped = reason(error);
    }
  } finally {
    await context.close();
  }
  return results;
}

/** The first open after a load, as Parley's measureOpen: a new document, the session clicked once the page is idle. */
async function openSession(page, url, count) {
  await loadAfresh(page, new URL(url).origin, url);
  await page.locator('textarea').first().waitFor({ timeout: 60_000 });
  const item = page.getByText(topic(count), { exact: true }).first();
  await item.waitFor({ timeout: 30_000 });
  await page.evaluate(() => window.__bench.untilIdle());
  await page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= event.timeStamp), { capture: true, once: true });
  });
  await item.click();
  const timing = await page.evaluate(async (marker) => {
    const bench = window.__bench;
    const painted = await bench.untilPainted(() => document.body.textContent.includes(marker), 120_000);
    const idle = await bench.untilIdle();
    const from = window.__benchClickAt;
    return { painted: painted - from, idle: idle - from, longTasks: bench.longTasksBetween(from, idle) };
  }, endMarker(count));
  return { ...timing, ...(await heapAndDom(page)) };
}

async function stream(page, url, provider, tokens) {
  await loadAfresh(page, new URL(url).origin, url);
  await page.getByText('bench stream', { exact: true }).first().click();
  provider.enqueue({ tokens, tokensEnd: STREAM_END, burst: true });
  const before = provider.requests.filter((request) => /\/chat\/completions$/.test(request.path) && request.method === 'POST').length;
  const box = page.locator('textarea').first();
  await box.fill(`Write a very long answer ${Date.now()}.`);
  await page.evaluate(() => {
    window.__benchEnterAt = undefined;
    document.addEventListener('keydown', (event) => event.key === 'Enter' && (window.__benchEnterAt ??= event.timeStamp), { capture: true });
    window.__bench.startFrames();
  });
  await box.press('Enter');
  const timing = await page.evaluate(async (marker) => {
    const bench = window.__bench;
    const painted = await bench.untilPainted(() => document.body.textContent.includes(marker), 120_000);
    const from = window.__benchEnterAt;
    return { from, painted, frames: bench.stopFrames(), longTasks: bench.longTasksBetween(from, painted), timeOrigin: performance.timeOrigin };
  }, STREAM_END.trim());
  const request = provider.requests.filter((entry) => /\/chat\/completions$/.test(entry.path) && entry.method === 'POST')[before];
  for (let attempt = 0; attempt < 500 && request?.answeredAt === undefined; attempt += 1) await sleep(10);
  // NextChat may send follow-up requests (titles, summaries); let them land before the next round queues its reply.
  await sleep(1000);
  provider.reset();
  return {
    enterToPainted: timing.painted - timing.from,
    serverSend: request.answeredAt - request.receivedAt,
    longTasks: timing.longTasks,
    frames: droppedFrames(timing.frames, timing.from, timing.painted),
  };
}

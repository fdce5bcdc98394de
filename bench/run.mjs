// Parley's benchmark: serves dist/ with `vite preview`, drives Chromium, and reports every figure as a ratio against a
// baseline measured in the same run, so results compare across noisy, shared machines. Run `npm run build` first.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const PORT = 4191;
const BASE = `http://localhost:${PORT}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

const workerFile = readdirSync('dist/assets').find((name) => /^main-.*\.js$/.test(name));
if (!workerFile) throw new Error('No worker chunk in dist/assets: run `npm run build` first.');

const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort'], { stdio: 'ignore', detached: true });
const stopServer = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stopServer);

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(BASE)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('vite preview did not start');
}

/** An empty HTML page on the app's origin: the baseline page and a clean place to start the worker from. */
const routeBlankPage = (page) =>
  page.route(`${BASE}/bench-blank`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

await waitForServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const results = [];
try {
  // 1. Page load: the app until its chat is usable, against a static file from the same server.
  const loads = { empty: [], app: [] };
  for (let round = 0; round < 5; round += 1) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await routeBlankPage(page);
    let started = performance.now();
    await page.goto(`${BASE}/bench-blank`);
    loads.empty.push(performance.now() - started);
    started = performance.now();
    await page.goto(`${BASE}/`);
    await page.getByRole('button', { name: 'New conversation' }).first().waitFor();
    loads.app.push(performance.now() - started);
    await context.close();
  }
  results.push(['app load until usable', median(loads.app), 'empty page load (same server)', median(loads.empty)]);

  // 2–4. Inside one page: the real worker chunk of the build, driven by raw command envelopes.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await routeBlankPage(page);
  await page.goto(`${BASE}/bench-blank`);
  const inPage = await page.evaluate(
    async ({ workerUrl, rounds }) => {
      const time = async (body) => {
        const started = performance.now();
        for (let round = 0; round < rounds; round += 1) await body(round);
        return (performance.now() - started) / rounds;
      };
      // Baseline: an echo worker's postMessage round trip.
      const echo = new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => postMessage(e.data)'], { type: 'text/javascript' })));
      const echoOnce = (value) => new Promise((resolve) => { echo.onmessage = () => resolve(); echo.postMessage(value); });
      const postMessageRoundTrip = await time((round) => echoOnce({ kind: 'command', id: String(round), command: { type: 'conversation.list' } }));

      // Baseline: a raw IndexedDB put of a small record, one transaction each.
      const raw = await new Promise((resolve, reject) => {
        const request = indexedDB.open('bench-raw', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('records', { keyPath: 'id' });
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const rawWrite = await time((round) => new Promise((resolve, reject) => {
        const transaction = raw.transaction('records', 'readwrite');
        transaction.objectStore('records').put({ id: `r${round}`, title: 'New conversation', createdAt: Date.now(), runState: 'idle' });
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      }));

      // Parley's worker, as the app starts it.
      const worker = new Worker(workerUrl, { type: 'module' });
      const pending = new Map();
      const streamed = { events: 0 };
      worker.onmessage = (event) => {
        const data = event.data;
        if (data.kind === 'reply') {
          pending.get(data.id)?.(data);
          pending.delete(data.id);
        } else if (data.event?.type === 'message-upserted') streamed.events += 1;
      };
      let next = 0;
      const send = (command) => new Promise((resolve) => {
        const id = `b${(next += 1)}`;
        pending.set(id, resolve);
        worker.postMessage({ kind: 'command', id, command });
      });
      await send({ type: 'settings.get' }); // wait for the database to open
      const commandRoundTrip = await time(() => send({ type: 'settings.get' }));
      const createConversation = await time(() => send({ type: 'conversation.create' }));

      // Streaming: a 20,000-character reply at full speed; compare with the raw writes it would take per chunk.
      const text = 'lorem ipsum '.repeat(1667).slice(0, 20_000);
      await send({ type: 'settings.update', script: JSON.stringify({ chunkSize: 100, chunkDelayMs: 0, steps: [{ text }] }) });
      const { result: conversation } = await send({ type: 'conversation.create' });
      const started = performance.now();
      streamed.events = 0;
      await send({ type: 'message.send', conversationId: conversation.id, text: 'go' });
      for (;;) {
        const { result } = await send({ type: 'conversation.open', conversationId: conversation.id });
        if (result.conversation.runState === 'idle') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const streamMs = performance.now() - started;
      worker.terminate();
      echo.terminate();
      return { postMessageRoundTrip, rawWrite, commandRoundTrip, createConversation, streamMs, chunks: text.length / 100, events: streamed.events };
    },
    { workerUrl: `${BASE}/assets/${workerFile}`, rounds: ROUNDS },
  );
  results.push(['command round trip (settings.get)', inPage.commandRoundTrip, 'raw postMessage round trip', inPage.postMessageRoundTrip]);
  results.push(['create conversation (validated, one transaction)', inPage.createConversation, 'raw IndexedDB write', inPage.rawWrite]);
  results.push([`stream 20,000 chars in ${inPage.chunks} chunks`, inPage.streamMs, `${inPage.chunks} raw IndexedDB writes`, inPage.rawWrite * inPage.chunks]);
  await context.close();

  console.log('\nParley benchmark (ratios against baselines measured in this run; lower is better)\n');
  console.log('measure'.padEnd(52), 'ms'.padStart(9), '  baseline'.padEnd(36), 'ms'.padStart(9), 'ratio'.padStart(8));
  for (const [name, value, baselineName, baseline] of results) {
    console.log(name.padEnd(52), value.toFixed(2).padStart(9), `  ${baselineName}`.padEnd(36), baseline.toFixed(2).padStart(9), `${(value / baseline).toFixed(2)}x`.padStart(8));
  }
  console.log(`\nUI events for the streamed reply: ${inPage.events} (coalesced to one UI update per frame in the page).`);
} finally {
  await browser.close();
  stopServer();
}

// The benchmark's plumbing: servers, the browser, and the in-page instruments every measurement shares.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { transformWithOxc } from 'vite';
import { BLANK_PAGE } from './preview-server.mjs';

/** The same binary and flags as the e2e suite (e2e/fixtures.ts). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Serves a build (dist/ by default) with `vite preview` in a process of its own (preview-server.mjs), which also answers
 * `/bench-blank` with the empty baseline page; resolves once it answers. The returned function stops it (its group).
 */
export async function startPreview(port, distDirectory = 'dist') {
  // Another checkout's server on this port would answer for ours, and the run would measure its build.
  const taken = await fetch(`http://localhost:${port}/`).then(() => true, () => false);
  if (taken) throw new Error(`Port ${port} already answers: stop that server or pick another port with BENCH_PORT.`);
  const child = spawn(process.execPath, [fileURLToPath(new URL('./preview-server.mjs', import.meta.url)), String(port), distDirectory], {
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', stop);
  const base = `http://localhost:${port}`;
  for (let attempt = 0; attempt < 150; attempt += 1) {
    try {
      if ((await fetch(`${base}/bench-blank`)).ok) return { base, stop };
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  stop();
  throw new Error(`vite preview did not start on port ${port} (is another one running there?)`);
}

/**
 * The e2e suite's provider server (tests/server/provider-server.ts), compiled on the fly: it imports only node:
 * modules, so stripping its types is all it takes to run it from plain node.
 */
export async function startProviderServer() {
  const source = readFileSync('tests/server/provider-server.ts', 'utf8');
  const { code } = await transformWithOxc(source, 'provider-server.ts', { lang: 'ts' });
  const directory = join(tmpdir(), `parley-bench-${process.pid}`);
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'provider-server.mjs');
  writeFileSync(file, code);
  const module = await import(pathToFileURL(file).href);
  return module.startProviderServer();
}

export function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Installed in every page before its own scripts. Records long tasks; on a page whose sessionStorage names a
 * `bench-watch` CSS selector (or on the blank page), records when that element was first painted, relative to the
 * navigation's start; and offers `untilPainted` and a frame recorder to the measurements.
 */
export function instrumentPage() {
  const bench = {
    longTasks: [],
    frames: [],
    recordingFrames: false,
    watchedAt: undefined,
    /**
     * Resolves with the time just after the first frame in which `check()` held was painted. `check` runs in every
     * frame, before the page's own frame callbacks, so it sees a change a frame late. With `onMutation`, it also runs
     * after each DOM change: a change made in a frame's callbacks (the app applies the worker's events there) resolves
     * once that very frame was painted; a change made between frames, once the next one was.
     */
    untilPainted(check, timeoutMs = 180_000, { onMutation = false } = {}) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        let settled = false;
        let inFrame = false;
        const holds = () => {
          try {
            return check();
          } catch {
            return false;
          }
        };
        const finish = (painted) => {
          settled = true;
          observer?.disconnect();
          painted(resolve);
        };
        const observer = onMutation
          ? new MutationObserver(() => {
              if (!settled && holds()) finish(inFrame ? afterPaint : afterNextPaint);
            })
          : undefined;
        observer?.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
        const tick = () => {
          if (settled) return;
          // This frame's callbacks and rendering run as one task: a message posted now is handled once it is over.
          inFrame = true;
          afterPaint(() => (inFrame = false));
          if (holds()) return finish(afterPaint);
          if (performance.now() - started > timeoutMs) {
            settled = true;
            observer?.disconnect();
            return reject(new Error(`not painted within ${timeoutMs} ms`));
          }
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
    },
    /** Resolves at the first idle callback: nothing more urgent is queued on the main thread. */
    untilIdle(timeoutMs = 30_000) {
      return new Promise((resolve) => requestIdleCallback(() => resolve(performance.now()), { timeout: timeoutMs }));
    },
    startFrames() {
      bench.frames = [];
      bench.recordingFrames = true;
      const tick = (time) => {
        if (!bench.recordingFrames) return;
        bench.frames.push(time);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    stopFrames() {
      bench.recordingFrames = false;
      return bench.frames;
    },
    /** Long tasks that started in [from, to]: count, longest, total (ms). */
    longTasksBetween(from, to) {
      const inside = bench.longTasks.filter(([start]) => start >= from - 1 && start <= to);
      return { count: inside.length, longest: inside.reduce((max, [, duration]) => Math.max(max, duration), 0), total: inside.reduce((sum, [, duration]) => sum + duration, 0) };
    },
  };
  // Called from a frame callback that saw the change: a message posted there is delivered once that frame was
  // painted. (It used to wait for one more frame first, which added up to a frame to every figure.) The change may have
  // been painted a frame earlier still, so a figure can be late by up to a frame, never early.
  function afterPaint(resolve) {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now());
    channel.port2.postMessage(0);
  }
  // Called between frames: once the next frame was painted.
  function afterNextPaint(resolve) {
    requestAnimationFrame(() => afterPaint(resolve));
  }
  window.__bench = bench;
  // When the page sent the app's worker a conversation.open, and when that reply arrived, by command id, in page time.
  bench.opens = new Map();
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const open = event.data?.kind === 'reply' ? bench.opens.get(event.data.id) : undefined;
        if (open) open.answered = performance.now();
      });
    }
    postMessage(message, ...rest) {
      if (message?.kind === 'command' && message.command?.type === 'conversation.open') bench.opens.set(message.id, { sent: performance.now() });
      return super.postMessage(message, ...rest);
    }
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long-task timing in this browser
  }
  const selector = location.pathname === '/bench-blank' ? 'body' : sessionStorage.getItem('bench-watch');
  if (selector) {
    const started = performance.now();
    const tick = () => {
      if (document.querySelector(selector)) return afterPaint((time) => (bench.watchedAt = time));
      if (performance.now() - started < 120_000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
}

/**
 * An empty HTML page at `origin`/bench-blank, made up by Playwright: for another app's origin (NextChat), whose server
 * has no such page. It intercepts every request of the page, which costs each a round trip through node: never on the
 * pages that measure Parley, whose server answers /bench-blank itself (startPreview).
 */
export async function routeBlankPage(page, origin) {
  await page.route(`${origin}/bench-blank`, (route) => route.fulfill({ contentType: 'text/html', body: BLANK_PAGE }));
}

/**
 * A fresh context with the instruments, no service worker (every load is a network load), and its first page, which
 * has visited the origin's blank page once (a warm renderer and connection, as for every load measured after it).
 * `routeBlank` makes the blank page up for an origin whose server has none (see routeBlankPage).
 */
export async function freshPage(browser, origin, { routeBlank = false } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  await context.addInitScript(instrumentPage);
  const page = await context.newPage();
  if (routeBlank) await routeBlankPage(page, origin);
  await page.goto(`${origin}/bench-blank`);
  return { context, page };
}

/**
 * Loads `url` as a new document: through the origin's blank page, so a URL that differs from the current one only in
 * its hash (a same-document navigation) is a full load too, with the app's worker started again and nothing in memory.
 */
export async function loadAfresh(page, origin, url) {
  await page.goto(`${origin}/bench-blank`);
  await page.goto(url);
}

/** Waits (in node) until the page's watcher saw its selector painted; the time since navigation start, in ms. */
export async function watchedTime(page, timeoutMs = 120_000) {
  await page.waitForFunction(() => window.__bench?.watchedAt !== undefined, undefined, { timeout: timeoutMs, polling: 50 });
  return page.evaluate(() => window.__bench.watchedAt);
}

/** Loads the blank page, then `url` watching for `selector`: [blank page painted, selector painted] in ms. */
export async function measureLoad(page, origin, url, selector) {
  await page.goto(`${origin}/bench-blank`);
  const blank = await watchedTime(page);
  await page.evaluate((value) => sessionStorage.setItem('bench-watch', value), selector);
  await page.goto(url);
  const loaded = await watchedTime(page);
  await page.evaluate(() => sessionStorage.removeItem('bench-watch'));
  return [blank, loaded];
}

/** The page's JS heap after a full GC (MB) and its DOM element count. */
export async function heapAndDom(page) {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.collectGarbage');
    const { usedSize } = await session.send('Runtime.getHeapUsage');
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    return { heapMb: usedSize / 1024 / 1024, elements };
  } finally {
    await session.detach();
  }
}

/** Frames dropped between `from` and `to`, from the frame times recorded meanwhile (60 Hz assumed). */
export function droppedFrames(frames, from, to) {
  const inside = [from, ...frames.filter((time) => time > from && time < to), to];
  let dropped = 0;
  let worstGap = 0;
  for (let index = 1; index < inside.length; index += 1) {
    const gap = inside[index] - inside[index - 1];
    worstGap = Math.max(worstGap, gap);
    dropped += Math.max(0, Math.round(gap / (1000 / 60)) - 1);
  }
  return { dropped, worstGap };
}

/**
 * Counts the agent worker's IndexedDB transactions (all, and readwrite) from now on; the agent worker is the page's only
 * worker not made from a blob. Resolves with a function that reads the counts so far.
 */
export async function countWorkerTransactions(page) {
  const worker = page.workers().find((candidate) => !candidate.url().startsWith('blob:'));
  await worker?.evaluate(() => {
    globalThis.__benchTransactions = { all: 0, write: 0, stores: {} };
    if (globalThis.__benchTransactionsWrapped) return;
    const original = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (stores, mode, ...rest) {
      globalThis.__benchTransactions.all += 1;
      if (mode === 'readwrite') globalThis.__benchTransactions.write += 1;
      // Which database and stores, for the figures' breakdown (a mirror's PouchDB database is `_pouch_…`).
      const key = `${this.name.startsWith('_pouch_') ? '_pouch_' : this.name}:${[...(typeof stores === 'string' ? [stores] : stores)].join('+')}:${mode ?? 'readonly'}`;
      globalThis.__benchTransactions.stores[key] = (globalThis.__benchTransactions.stores[key] ?? 0) + 1;
      return original.call(this, stores, mode, ...rest);
    };
    globalThis.__benchTransactionsWrapped = true;
  });
  return async () => (await worker?.evaluate(() => ({ ...globalThis.__benchTransactions }))) ?? { all: Number.NaN, write: Number.NaN, stores: {} };
}

// Sync, `--only sync`: pouchdb-server in memory (started as tests/server/couch-server.ts does for e2e/sync.spec.ts,
// or the CouchDB at COUCHDB_URL) behind a TCP proxy that counts every byte either way, and devices as separate browser
// contexts (their own IndexedDB and worker), driven through the UI as a user would.
//
//  (a) Submit answers on device B → device A's next model request at the provider server, against one replication
//      round trip measured in the same run (a document PUT from the page, heard by a `_changes` longpoll waiting on it).
//  (b) Initial sync: device C imports `conversations` × `messagesPerConversation` messages and turns sync on (upload);
//      device D turns sync on with the same server and passphrase (download). Time, bytes on the wire, bytes on the server,
//      what the mirror costs on C's disk, and the "Syncing n of m" statuses D showed meanwhile.
//  (c) A synced write's extra cost on A's worker: the same question round (ask, answer on A, reply) with sync on and on a
//      device with sync off: Submit → next model request, IndexedDB transactions, bytes on the wire, the engine's own time.
//  (d) A 5 MB image attached on A: Send on A → the image shown (decoded) on B, which has the conversation open.
//  (e) A reply streamed at the end of conversations of 2, 40 and 160 messages: each rewrite of its last segment.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { noisePng } from '../e2e/noise-png.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { countWorkerTransactions, freshPage, median, sleep } from './harness.mjs';
import { addServerProfile, chatRequests, clockOffset, conversationWithServer, PROFILE_NAME } from './parley.mjs';

const PASSPHRASE = 'correct horse battery staple';
const ADMIN = { username: 'parley-admin', password: 'correct-couch-password' };
const PUSH_MEASURE = 'parley:sync.push';
const RECEIVE_MEASURE = 'parley:sync.receive';
const ANSWERED_END = 'Thanks, noted. bench-sync-end';
const QUESTION = { header: 'Pick', question: 'Which one should it be?', options: [{ label: 'Alpha' }, { label: 'Beta' }] };
/** What a write leaves for the engine: it gathers writes for 250 ms before sealing them; a round waits this long after its end. */
const QUIET_MS = 1500;

/** A free localhost port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A TCP proxy to `upstreamPort` that counts the bytes each way (HTTP headers and bodies as sent). */
async function countingProxy(upstreamPort) {
  const bytes = { up: 0, down: 0 };
  const sockets = new Set();
  let connections = 0;
  /** With BENCH_SYNC_ANSWER_TRACE: each chunk either way (the time, the connection, a request's first line). */
  let log;
  const server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    const connection = (connections += 1);
    client.on('data', (chunk) => {
      bytes.up += chunk.length;
      if (log) log.push({ at: Date.now(), connection, up: chunk.toString('latin1', 0, 90).split('\r\n')[0] });
    });
    upstream.on('data', (chunk) => {
      bytes.down += chunk.length;
      if (log) log.push({ at: Date.now(), connection, down: chunk.length, text: chunk.toString('latin1').slice(-60).replace(/\s+/g, ' ') });
    });
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    bytes,
    /** Starts (or ends, returning it) logging each chunk. */
    logChunks(on) {
      const taken = log;
      log = on ? [] : undefined;
      return taken;
    },
    /** The bytes counted since the last call. */
    take() {
      const taken = { ...bytes };
      bytes.up = 0;
      bytes.down = 0;
      return taken;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function expectOk(response, what) {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text().catch(() => '')}`);
  return response;
}

/**
 * pouchdb-server --in-memory with CORS and an admin, exactly as the e2e suite's (tests/server/couch-server.ts), or the
 * CouchDB at COUCHDB_URL (COUCHDB_USER / COUCHDB_PASSWORD, already allowing the app's origin). Devices reach it through
 * the counting proxy.
 */
export async function startCouch() {
  const external = process.env.COUCHDB_URL;
  let child;
  let directory;
  let upstreamPort;
  let admin = ADMIN;
  if (external) {
    const url = new URL(external);
    upstreamPort = Number(url.port || 5984);
    admin = { username: process.env.COUCHDB_USER ?? 'admin', password: process.env.COUCHDB_PASSWORD ?? '' };
  } else {
    upstreamPort = await freePort();
    directory = mkdtempSync(join(tmpdir(), 'parley-bench-couch-'));
    child = spawn(resolve('node_modules/.bin/pouchdb-server'), ['--in-memory', '--port', String(upstreamPort), '--host', '127.0.0.1'], { cwd: directory, stdio: 'ignore', detached: true });
    const upstream = `http://127.0.0.1:${upstreamPort}`;
    for (let attempt = 0; ; attempt += 1) {
      if (await fetch(`${upstream}/`).then((response) => response.ok, () => false)) break;
      if (attempt > 300) throw new Error('pouchdb-server did not start');
      await sleep(100);
    }
    const cors = [['httpd/enable_cors', 'true'], ['cors/origins', '*'], ['cors/credentials', 'true'], ['cors/methods', 'GET, PUT, POST, HEAD, DELETE'], ['cors/headers', 'accept, authorization, content-type, origin, referer']];
    for (const [key, value] of cors) await expectOk(await fetch(`${upstream}/_config/${key}`, { method: 'PUT', body: JSON.stringify(value) }), `PUT /_config/${key}`);
    await expectOk(await fetch(`${upstream}/_config/admins/${ADMIN.username}`, { method: 'PUT', body: JSON.stringify(ADMIN.password) }), 'PUT /_config/admins');
  }
  const proxy = await countingProxy(upstreamPort);
  const origin = `http://127.0.0.1:${proxy.port}`;
  const authorization = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  const authorized = (url, init = {}) => fetch(url, { ...init, headers: { authorization, 'content-type': 'application/json', ...init.headers } });
  const made = [];
  return {
    origin,
    ...admin,
    proxy,
    kind: external ? 'CouchDB at COUCHDB_URL' : 'pouchdb-server --in-memory',
    async createDatabase() {
      const url = `${origin}/parley-bench-${randomUUID()}`;
      await expectOk(await authorized(url, { method: 'PUT' }), 'PUT /<database>');
      made.push(url);
      await expectOk(await authorized(`${url}/_security`, { method: 'PUT', body: JSON.stringify({ admins: { names: [], roles: [] }, members: { names: [], roles: ['_admin'] } }) }), 'PUT _security');
      return url;
    },
    async documentCount(url) {
      return (await (await expectOk(await authorized(url), 'GET /<database>')).json()).doc_count;
    },
    /** What the server holds: its documents as JSON (CouchDB's `sizes.external`, computed) and what it reports of itself. */
    async stored(url) {
      const info = await (await expectOk(await authorized(url), 'GET /<database>')).json();
      const all = await (await expectOk(await authorized(`${url}/_all_docs?include_docs=true`), 'GET _all_docs')).json();
      const documentBytes = all.rows.reduce((sum, row) => sum + Buffer.byteLength(JSON.stringify(row.doc ?? {})), 0);
      return { documents: info.doc_count, documentBytes, reported: info.sizes ?? { disk_size: info.disk_size, data_size: info.data_size } };
    },
    async stop() {
      await Promise.all(made.map((url) => authorized(url, { method: 'DELETE' }).catch(() => undefined)));
      proxy.close();
      if (child) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      if (directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

const syncRegion = (page) => page.getByRole('region', { name: 'Sync', exact: true });

async function openSettings(page, base) {
  await page.goto(`${base}/#/`);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await syncRegion(page).waitFor();
}

/** A device: a fresh context (its own storage and worker) with its name set in Settings → Sync. */
async function openDevice(browser, base, name) {
  const { context, page } = await freshPage(browser, base);
  await openSettings(page, base);
  await syncRegion(page).getByRole('textbox', { name: "This device's name", exact: true }).fill(name);
  await syncRegion(page).getByRole('button', { name: 'Use this name', exact: true }).click();
  await syncRegion(page).getByText(`This device is called “${name}”.`, { exact: true }).waitFor();
  return { name, context, page };
}

/** Records every text the Sync status shows from now on (in the page), so a passing "Syncing n of m" is seen. */
async function recordStatuses(page) {
  await page.evaluate(() => {
    window.__benchSyncStatuses = [];
    // When each status was shown (page clock, epoch ms): the upload's end is when "Synced" was shown, not when the
    // bench's polling noticed it (hundreds of ms later on a loaded machine).
    window.__benchSyncStatusTimes = [];
    const note = () => {
      const text = document.querySelector('.sync-status[role="status"]')?.textContent ?? '';
      if (text && window.__benchSyncStatuses.at(-1) !== text) {
        window.__benchSyncStatuses.push(text);
        window.__benchSyncStatusTimes.push({ text, at: performance.timeOrigin + performance.now() });
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** Fills Settings → Sync, presses "Turn on sync"; resolves with the click's time (page clock, epoch ms). */
async function turnOn(device, base, couch, database) {
  const { page } = device;
  await openSettings(page, base);
  const region = syncRegion(page);
  await region.getByRole('textbox', { name: 'Sync server URL', exact: true }).fill(database);
  await region.getByRole('textbox', { name: 'Username', exact: true }).fill(couch.username);
  await region.getByLabel('Password', { exact: true }).fill(couch.password);
  await region.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
  await recordStatuses(page);
  const clickedAt = await page.evaluate(() => performance.timeOrigin + performance.now());
  await region.getByRole('button', { name: 'Turn on sync', exact: true }).click();
  await region.getByRole('button', { name: 'Turn off sync', exact: true }).waitFor({ timeout: 120_000 });
  return clickedAt;
}

async function waitSynced(page, timeout = 600_000) {
  await syncRegion(page).getByRole('status').filter({ hasText: /^Synced/ }).waitFor({ timeout });
}

/** When the status last turned to "Synced" (page clock, epoch ms), as recordStatuses noted it. */
async function syncedShownAt(page) {
  const times = await page.evaluate(() => window.__benchSyncStatusTimes);
  const last = times.findLastIndex((entry) => /^Synced/.test(entry.text));
  let first = last;
  while (first > 0 && /^Synced/.test(times[first - 1].text)) first -= 1;
  return times[first].at;
}

async function waitUntil(check, timeoutMs, what) {
  const started = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out: ${what}`);
    await sleep(100);
  }
}

/** Conversations and messages in the device's own IndexedDB (the app's store, read from its page). */
function countRecords(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const request = indexedDB.open('parley');
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const database = request.result;
      const transaction = database.transaction(['conversations', 'messages'], 'readonly');
      const conversations = transaction.objectStore('conversations').count();
      const messages = transaction.objectStore('messages').count();
      transaction.oncomplete = () => {
        database.close();
        resolve({ conversations: conversations.result, messages: messages.result });
      };
    };
  }));
}

/** This origin's storage as the browser counts it (IndexedDB on disk, LevelDB), in bytes. */
const storageUsage = (page) => page.evaluate(async () => {
  const estimate = await navigator.storage.estimate();
  return estimate.usageDetails?.indexedDB ?? estimate.usage;
});

const agentWorker = (page) => page.workers().find((candidate) => !candidate.url().startsWith('blob:'));

/** The agent worker's performance measures named `name` that started after `after` (ms, worker clock). */
async function workerMeasures(page, name, after = 0) {
  const worker = agentWorker(page);
  if (!worker) return [];
  return worker.evaluate(({ name, after }) => performance.getEntriesByName(name).filter((entry) => entry.startTime > after).map((entry) => ({ startTime: entry.startTime, duration: entry.duration, detail: entry.detail })), { name, after });
}

/**
 * Where an upload's time went (BENCH_SYNC_TRACE=<file>): the worker's sync marks and measures and its requests to the
 * server, in ms from "Turn on sync" pressed, written as JSON lines and summed up in the log.
 */
async function writeTrace(page, file, clickedAt, uploadMs) {
  const entries = await agentWorker(page).evaluate((clickedAt) => performance.getEntries()
    .filter((entry) => entry.name.startsWith('parley:sync') || (entry.entryType === 'resource' && !entry.name.includes('/assets/')))
    .map((entry) => ({ type: entry.entryType, name: entry.name, start: Math.round(performance.timeOrigin + entry.startTime - clickedAt), ms: Math.round(entry.duration), detail: entry.detail, bytes: entry.transferSize }))
    .filter((entry) => entry.start >= -50), clickedAt);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, [`{"uploadMs":${uploadMs}}`, ...entries.sort((a, b) => a.start - b.start).map((entry) => JSON.stringify(entry))].join('\n') + '\n');
}

/**
 * Where a remote answer's time went (BENCH_SYNC_ANSWER_TRACE=<file>, appended per round): both devices' proposal marks
 * and requests to the server, in ms from Submit's click on B, up to A's model request.
 */
async function writeAnswerTrace(file, pages, clickAt, submitToRequest, chunks) {
  const lines = [JSON.stringify({ round: true, submitToRequest: Math.round(submitToRequest) })];
  for (const chunk of chunks) if (chunk.at - clickAt <= submitToRequest + 200) lines.push(JSON.stringify({ device: 'proxy', type: 'chunk', name: chunk.up ?? `${chunk.down} B ${chunk.text}`, connection: chunk.connection, start: Math.round(chunk.at - clickAt), end: Math.round(chunk.at - clickAt) }));
  for (const [device, page] of Object.entries(pages)) {
    const entries = await agentWorker(page).evaluate((clickAt) => performance.getEntries()
      .filter((entry) => entry.name.startsWith('parley:sync.proposal') || (entry.entryType === 'resource' && !entry.name.includes('/assets/')))
      .map((entry) => ({ type: entry.entryType, name: entry.name.replace(/^https?:\/\/[^/]+/, ''), start: Math.round(performance.timeOrigin + entry.startTime - clickAt), end: Math.round(performance.timeOrigin + entry.startTime + entry.duration - clickAt), detail: entry.detail, ...(entry.entryType === 'resource' ? { connect: Math.round(entry.connectEnd - entry.startTime), request: Math.round(entry.requestStart - entry.startTime), response: Math.round(entry.responseStart - entry.startTime) } : {}) })), clickAt);
    for (const entry of entries) if (entry.end >= -20 && entry.start <= submitToRequest + 200) lines.push(JSON.stringify({ device, ...entry }));
  }
  const { appendFileSync } = await import('node:fs');
  appendFileSync(file, lines.join('\n') + '\n');
}

const workerNow = (page) => page.workers().find((candidate) => !candidate.url().startsWith('blob:'))?.evaluate(() => performance.now()) ?? 0;

/** A conversation of an export (and its messages) under another id. */
function renamed({ conversation, messages }, id) {
  return { conversation: { ...conversation, id, title: id }, messages: messages.map((message) => ({ ...message, id: `${id}-m${message.seq}`, conversationId: id })) };
}

/** An export file: `conversations` conversations of `perConversation` messages (user and assistant text, ~250 characters). */
function exportOf(conversations, perConversation, now = 1_700_000_000_000) {
  const file = { format: 'parley-export', version: 1, exportedAt: now, conversations: [] };
  for (let index = 0; index < conversations; index += 1) {
    const id = `sync-bench-${index}`;
    const messages = [];
    for (let seq = 0; seq < perConversation; seq += 1) {
      const role = seq % 2 === 0 ? 'user' : 'assistant';
      const text = role === 'user' ? `Question ${seq / 2 + 1} of conversation ${index}: could you explain this part again?` : `Here is a **short** answer with \`inline code\`, a list:\n\n- the first item\n- the second item\n\nand a sentence that goes on for a while, reply ${seq}.`;
      messages.push({ id: `${id}-m${seq}`, conversationId: id, seq, role, blocks: [{ type: 'text', text }], status: 'complete', createdAt: now + seq, updatedAt: now + seq });
    }
    file.conversations.push({ conversation: { id, title: `Synced conversation ${index}`, createdAt: now, updatedAt: now + perConversation, runState: 'idle', completedSteps: perConversation / 2 }, messages });
  }
  return file;
}

/** One replication round trip from the page: a PUT of a small document, heard by a `_changes` longpoll already waiting. */
async function replicationRoundTrips(page, databaseUrl, username, password, rounds) {
  return page.evaluate(async ({ databaseUrl, username, password, rounds }) => {
    const headers = { authorization: `Basic ${btoa(`${username}:${password}`)}`, 'content-type': 'application/json' };
    const times = [];
    let since = (await (await fetch(`${databaseUrl}/_changes?descending=true&limit=1`, { headers })).json()).last_seq;
    for (let round = 0; round < rounds; round += 1) {
      const heard = fetch(`${databaseUrl}/_changes?feed=longpoll&since=${encodeURIComponent(since)}&timeout=30000`, { headers }).then((response) => response.json());
      // The longpoll's request is on its way before the write: what is measured is write → the waiting feed hears it.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const started = performance.now();
      await fetch(`${databaseUrl}/round-trip-${round}-${Date.now()}`, { method: 'PUT', headers, body: JSON.stringify({ e: 1, iv: 'AAAAAAAAAAAAAAAA', ct: 'x'.repeat(200) }) });
      const changes = await heard;
      times.push(performance.now() - started);
      since = changes.last_seq;
    }
    return times;
  }, { databaseUrl, username, password, rounds });
}

/** A question round on `asker`, answered on `answerer` (the same page, or another device): Submit → next model request. */
async function questionRound(asker, answerer, base, provider) {
  await conversationWithServer(asker.page, base);
  provider.enqueue({ text: 'One question first.', toolCalls: [{ name: 'question', args: { questions: [QUESTION] } }] }, { text: ANSWERED_END });
  const box = asker.page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill('Ask me something.');
  await box.press('Enter');
  const formOf = (page) => page.getByRole('form', { name: 'Question from Parley', exact: true });
  await formOf(asker.page).waitFor();
  const conversationId = new URL(asker.page.url()).hash.replace('#/c/', '');
  if (answerer !== asker) {
    await answerer.page.goto(`${base}/#/`);
    const link = answerer.page.getByRole('navigation', { name: 'Conversations', exact: true }).locator(`a[href="#/c/${conversationId}"]`);
    await link.waitFor({ timeout: 60_000 });
    await link.click();
    await formOf(answerer.page).waitFor({ timeout: 60_000 });
  }
  // The engine's writes of the ask itself are over before the answer is timed and counted.
  await sleep(QUIET_MS);
  const form = formOf(answerer.page);
  await form.getByRole('radio', { name: 'Alpha' }).check();
  const readTransactions = await countWorkerTransactions(asker.page);
  const measuresFrom = await workerNow(asker.page);
  asker.couch?.proxy.take();
  const tracing = process.env.BENCH_SYNC_ANSWER_TRACE && answerer !== asker;
  if (tracing) for (const page of [asker.page, answerer.page]) await agentWorker(page).evaluate(() => performance.clearResourceTimings());
  if (tracing) asker.couch?.proxy.logChunks(true);
  const before = chatRequests(provider).length;
  await answerer.page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= performance.timeOrigin + event.timeStamp), { capture: true, once: true });
  });
  await form.getByRole('button', { name: 'Submit answers' }).click();
  await waitUntil(() => chatRequests(provider).length > before, 120_000, 'the next model request');
  const clickAt = await answerer.page.evaluate(() => window.__benchClickAt);
  const offset = await clockOffset(answerer.page, provider.url);
  const submitToRequest = chatRequests(provider)[before].receivedAt - offset - clickAt;
  if (tracing) await writeAnswerTrace(process.env.BENCH_SYNC_ANSWER_TRACE, { A: asker.page, B: answerer.page }, clickAt, submitToRequest, asker.couch?.proxy.logChunks(false) ?? []);
  await asker.page.waitForFunction((text) => document.querySelector('[role="log"]')?.textContent.includes(text), ANSWERED_END, { timeout: 60_000 });
  // The same wait with sync on and off: the engine seals what the round wrote within it.
  await sleep(QUIET_MS);
  const transactions = await readTransactions();
  const wire = asker.couch?.proxy.take();
  const pushes = await workerMeasures(asker.page, PUSH_MEASURE, measuresFrom);
  const receives = await workerMeasures(asker.page, RECEIVE_MEASURE, measuresFrom);
  return {
    submitToRequest,
    transactions: transactions.all,
    writeTransactions: transactions.write,
    transactionStores: transactions.stores,
    wireBytes: wire ? wire.up + wire.down : 0,
    pushMs: pushes.reduce((sum, entry) => sum + entry.duration, 0),
    pushDocuments: pushes.reduce((sum, entry) => sum + (entry.detail?.documents ?? 0), 0),
    sealedBytes: pushes.reduce((sum, entry) => sum + (entry.detail?.bytes ?? 0), 0),
    receiveMs: receives.reduce((sum, entry) => sum + entry.duration, 0),
  };
}

/** 1024 × 1280 pixels: 5.25 MB. */
const PHOTO_BYTES = noisePng(1024, 1280).length;

/**
 * A new image (other noise each round, so no file is already here) sent on `laptop` in a conversation `phone` has open:
 * Send's click (laptop's clock) → the phone's image decoded (its clock, both epoch ms on one machine).
 */
async function imageRound(laptop, phone, base, provider) {
  await conversationWithServer(laptop.page, base);
  provider.enqueue({ text: 'First reply.' }, { text: 'Second reply.' });
  const box = laptop.page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill('A photo follows');
  await box.press('Enter');
  await laptop.page.getByRole('log', { name: 'Messages', exact: true }).getByText('First reply.').waitFor();
  const conversationId = new URL(laptop.page.url()).hash.replace('#/c/', '');
  await phone.page.goto(`${base}/#/`);
  const link = phone.page.getByRole('navigation', { name: 'Conversations', exact: true }).locator(`a[href="#/c/${conversationId}"]`);
  await link.waitFor({ timeout: 60_000 });
  await link.click();
  await phone.page.getByRole('log', { name: 'Messages', exact: true }).getByText('First reply.').waitFor({ timeout: 60_000 });
  await sleep(QUIET_MS);
  const chooser = laptop.page.waitForEvent('filechooser');
  await laptop.page.getByRole('button', { name: 'Attach files', exact: true }).click();
  await (await chooser).setFiles({ name: 'photo.png', mimeType: 'image/png', buffer: noisePng(1024, 1280) });
  await box.fill('Here it is');
  await laptop.page.evaluate(() => {
    window.__benchClickAt = undefined;
    document.addEventListener('click', (event) => (window.__benchClickAt ??= performance.timeOrigin + event.timeStamp), { capture: true, once: true });
  });
  await laptop.page.getByRole('button', { name: 'Send', exact: true }).click();
  // The message itself, its image still "not here yet": shown before the bytes have arrived.
  const messageAt = await (
    await phone.page.waitForFunction(() => document.querySelectorAll('[role="log"] article[aria-label="You"]').length >= 2 && performance.timeOrigin + performance.now(), undefined, { polling: 'raf', timeout: 60_000 })
  ).jsonValue();
  const shownAt = await (
    await phone.page.waitForFunction(() => {
      const articles = document.querySelectorAll('[role="log"] article[aria-label="You"]');
      const image = articles[articles.length - 1]?.querySelector('ul[aria-label="Files sent with this message"] img');
      return image?.complete && image.naturalWidth > 0 ? performance.timeOrigin + performance.now() : false;
    }, undefined, { polling: 'raf', timeout: 120_000 })
  ).jsonValue();
  const clickAt = await laptop.page.evaluate(() => window.__benchClickAt);
  await sleep(QUIET_MS);
  return { shown: shownAt - clickAt, message: messageAt - clickAt };
}

/**
 * All three figures. `initial` sizes the initial sync ({ conversations, perConversation }); `rounds` repeats (a) and (c).
 * Returns rows for run.mjs's table and the raw figures.
 */
export async function measureSync(browser, base, provider, { rounds = 5, initial = { conversations: 100, perConversation: 100 }, parts = ['write', 'answer', 'initial'], log = () => {} } = {}) {
  const couch = await startCouch();
  const rows = [];
  const figures = { server: couch.kind, initial };
  const contexts = [];
  const device = async (name) => {
    const opened = await openDevice(browser, base, name);
    contexts.push(opened.context);
    return opened;
  };
  try {
    if (parts.includes('write') || parts.includes('answer')) await answerAndWriteRows();
    if (parts.includes('attachment')) await attachmentRows();
    if (parts.includes('initial')) await initialSyncRows();
    if (parts.includes('tail')) await tailRows();
  } finally {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    await couch.stop();
  }
  return { rows, figures };

  async function answerAndWriteRows() {
    // (c) first, while A is the only device on its database: the same rounds with sync off, then on.
    log('sync: a question round with sync off, then on (same inputs)');
    const offDevice = await device('Sync off');
    await addServerProfile(offDevice.page, base, provider.url);
    const off = [];
    for (let round = 0; round < rounds; round += 1) off.push(await questionRound(offDevice, offDevice, base, provider));
    await offDevice.context.close();

    const database = await couch.createDatabase();
    const laptop = await device('Laptop');
    await addServerProfile(laptop.page, base, provider.url);
    await turnOn(laptop, base, couch, database);
    await waitSynced(laptop.page);
    laptop.couch = couch;
    const on = [];
    for (let round = 0; round < rounds; round += 1) on.push(await questionRound(laptop, laptop, base, provider));
    figures.writeCost = { off, on };
    const pick = (runs, select) => median(runs.map(select));
    rows.push(['sync', 'a question round on A: Submit → next model request, sync on', pick(on, (run) => run.submitToRequest), 'ms', 'sync off, same round', pick(off, (run) => run.submitToRequest)]);
    rows.push(['sync', 'a question round on A: IndexedDB transactions (all), sync on', pick(on, (run) => run.transactions), '', 'sync off', pick(off, (run) => run.transactions), `readwrite ${pick(on, (run) => run.writeTransactions)} on / ${pick(off, (run) => run.writeTransactions)} off`]);
    rows.push(['sync', "a question round on A: the engine's sealing and mirror writes (worker)", pick(on, (run) => run.pushMs), 'ms', '', undefined, `${pick(on, (run) => run.pushDocuments)} documents, ${pick(on, (run) => run.sealedBytes)} B sealed; reading its own writes back ${pick(on, (run) => run.receiveMs).toFixed(0)} ms`]);
    rows.push(['sync', 'a question round on A: bytes on the wire (both ways)', pick(on, (run) => run.wireBytes), 'B']);

    // (a) B answers what A's model asked.
    log('sync: answers on B → A’s next model request');
    const phone = await device('Phone');
    await turnOn(phone, base, couch, database);
    await waitSynced(phone.page);
    const answers = [];
    // The round trip is measured beside each round too (on a loaded machine it swings several times over in a minute):
    // each round's ratio is to the median of three measured just before it.
    const tripDatabase = await couch.createDatabase();
    for (let round = 0; round < rounds; round += 1) {
      const before = await replicationRoundTrips(phone.page, tripDatabase, couch.username, couch.password, 3);
      answers.push({ ...(await questionRound(laptop, phone, base, provider)), roundTrip: median(before) });
    }
    const roundTrips = await replicationRoundTrips(phone.page, await couch.createDatabase(), couch.username, couch.password, Math.max(9, rounds * 2));
    figures.answerElsewhere = { answers, roundTrips };
    const roundTrip = median(roundTrips);
    const pairedRatio = pick(answers, (run) => run.submitToRequest / run.roundTrip);
    rows.push(['sync', 'Submit answers on B → A’s next model request', pick(answers, (run) => run.submitToRequest), 'ms', 'one replication round trip (PUT → a waiting _changes hears it)', roundTrip, `median of ${rounds}; round trip median of ${roundTrips.length}; each round ÷ the round trip beside it: median ${pairedRatio.toFixed(2)}×`]);
    // The runner's own part of the path (its compare-and-set, the run's start, the model request) is in neither the round
    // trip nor the issue's floor: this row counts it in, so what sync adds shows apart from what answering costs anyway.
    const answeredOnA = pick(on, (run) => run.submitToRequest);
    rows.push(['sync', 'Submit answers on B → A’s next model request (again)', pick(answers, (run) => run.submitToRequest), 'ms', 'the round trip + the same round answered on A', roundTrip + answeredOnA, `${roundTrip.toFixed(0)} + ${answeredOnA.toFixed(0)} ms`]);
    rows.push(['sync', 'Submit answers on B: IndexedDB transactions on A (all)', pick(answers, (run) => run.transactions), '', 'the same round answered on A, sync on', pick(on, (run) => run.transactions)]);
    await laptop.context.close();
    await phone.context.close();
  }

  async function attachmentRows() {
    log('sync: a 5 MB image attached on A → shown on B');
    const database = await couch.createDatabase();
    const laptop = await device('Laptop');
    await addServerProfile(laptop.page, base, provider.url);
    const phone = await device('Phone');
    await turnOn(laptop, base, couch, database);
    await turnOn(phone, base, couch, database);
    await waitSynced(laptop.page);
    await waitSynced(phone.page);
    const images = [];
    for (let round = 0; round < rounds; round += 1) images.push(await imageRound(laptop, phone, base, provider));
    const shown = images.map((round) => round.shown);
    const message = images.map((round) => round.message);
    figures.attachment = { shown, message, bytes: PHOTO_BYTES };
    rows.push(['sync', `a ${(PHOTO_BYTES / 1e6).toFixed(2)} MB image attached on A: Send → shown on B (conversation open there)`, median(shown), 'ms', '', undefined, `median of ${rounds}: ${shown.map((ms) => ms.toFixed(0)).join(', ')}; target ≤ 3000 ms`]);
    rows.push(['sync', `the same: Send → its message shown on B (the image “not here yet”)`, median(message), 'ms', '', undefined, `median of ${rounds}: ${message.map((ms) => ms.toFixed(0)).join(', ')}`]);
    await laptop.context.close();
    await phone.context.close();
  }

  async function tailRows() {
    // (e) What a reply streaming at the end of a conversation costs the runner: each push rewrites the segment it is in
    // whole (read from the store, sealed, written), so the cost grows with what that segment already holds.
    log('sync: a reply streamed after 2, 40 and 160 messages: the rewrites of the last segment');
    const database = await couch.createDatabase();
    const laptop = await device('Laptop');
    await addServerProfile(laptop.page, base, provider.url);
    const sizes = [2, 40, 160];
    const conversations = sizes.map((size) => renamed(exportOf(1, size).conversations[0], `tail-${size}`));
    const file = { name: 'tail.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...exportOf(0, 0), conversations })) };
    await openSettings(laptop.page, base);
    await laptop.page.getByLabel('Import conversations').setInputFiles(file);
    await laptop.page.getByRole('status').filter({ hasText: /Imported \d+ conversation/ }).waitFor({ timeout: 120_000 });
    await turnOn(laptop, base, couch, database);
    await waitSynced(laptop.page);
    const tail = [];
    for (const [index, size] of sizes.entries()) {
      await laptop.page.goto(`${base}/#/c/tail-${size}`);
      await laptop.page.getByRole('combobox', { name: 'Model profile', exact: true }).selectOption({ label: PROFILE_NAME });
      await sleep(QUIET_MS);
      const from = await workerNow(laptop.page);
      provider.enqueue({ tokens: 800, tokensEnd: ANSWERED_END, delayMsPerChunk: 4 });
      const box = laptop.page.getByRole('textbox', { name: 'Message', exact: true });
      await box.fill(`Write a long answer (${index}).`);
      await box.press('Enter');
      await laptop.page.waitForFunction((end) => {
        const last = [...document.querySelectorAll('[role="log"] article')].at(-1);
        return last?.getAttribute('aria-label') === 'Parley' && last.getAttribute('data-status') === 'complete' && last.textContent.includes(end);
      }, ANSWERED_END, { timeout: 120_000 });
      await sleep(QUIET_MS);
      const pushes = (await workerMeasures(laptop.page, PUSH_MEASURE, from)).filter((entry) => entry.detail?.documents > 0);
      const each = (select) => median(pushes.map(select));
      tail.push({ size, pushes: pushes.length, ms: each((entry) => entry.duration), bytes: each((entry) => entry.detail.bytes), all: pushes.map((entry) => Math.round(entry.duration)) });
      rows.push(['sync', `a reply streamed after ${size} messages: one rewrite of its segment (worker, median)`, each((entry) => entry.duration), 'ms', '', undefined, `${pushes.length} rewrites, ${each((entry) => entry.detail.bytes)} B sealed each (median); ${pushes.map((entry) => entry.duration.toFixed(0)).join(' ')}`]);
    }
    figures.tail = tail;
    await laptop.context.close();
  }

  async function initialSyncRows() {
    // (b) The initial sync of a large history.
    const messages = initial.conversations * initial.perConversation;
    log(`sync: initial sync of ${initial.conversations} conversations / ${messages} messages`);
    const big = await couch.createDatabase();
    const source = await device('Desktop');
    await openSettings(source.page, base);
    const file = { name: 'sync-bench.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exportOf(initial.conversations, initial.perConversation))) };
    // What the ratios compare the sync with: importing the export on a fresh device, and exporting the records again.
    const importStarted = Date.now();
    await source.page.getByLabel('Import conversations').setInputFiles(file);
    await source.page.getByRole('status').filter({ hasText: /Imported \d+ conversation/ }).waitFor({ timeout: 900_000 });
    const importMs = Date.now() - importStarted;
    const exportStarted = Date.now();
    const exported = source.page.waitForEvent('download', { timeout: 900_000 });
    await source.page.getByRole('button', { name: 'Export conversations' }).click();
    await (await exported).path();
    const exportMs = Date.now() - exportStarted;
    const usageBefore = await storageUsage(source.page);
    couch.proxy.take();
    // Key document, a conversation and a runner document per conversation, and the messages: a document each (the build
    // before segments) or at least one segment per conversation (how many depends on the build's packing). The upload is
    // over once the server holds that many, the status says "Synced" and the server's count stays put for 3 s (measured
    // to when it last grew).
    const expected = 1 + 3 * initial.conversations;
    await agentWorker(source.page)?.evaluate(() => performance.setResourceTimingBufferSize(100_000));
    const uploadStarted = await turnOn(source, base, couch, big);
    await waitUntil(async () => (await couch.documentCount(big)) >= expected, 3_600_000, 'the upload');
    await waitSynced(source.page, 600_000);
    let uploadEnded = await syncedShownAt(source.page);
    for (let count = await couch.documentCount(big), still = Date.now(); Date.now() - still < 3000; await sleep(250)) {
      const now = await couch.documentCount(big);
      if (now !== count) [count, still, uploadEnded] = [now, Date.now(), Date.now()];
    }
    const uploadMs = uploadEnded - uploadStarted;
    const upload = couch.proxy.take();
    const usageAfter = await storageUsage(source.page);
    // The engine's own part of the upload: reading C's records, sealing them and writing them to the mirror.
    const pushes = await workerMeasures(source.page, PUSH_MEASURE);
    const sealing = { ms: pushes.reduce((sum, entry) => sum + entry.duration, 0), documents: pushes.reduce((sum, entry) => sum + (entry.detail?.documents ?? 0), 0), batches: pushes.length };
    if (process.env.BENCH_SYNC_TRACE) await writeTrace(source.page, process.env.BENCH_SYNC_TRACE, uploadStarted, uploadMs);
    const stored = await couch.stored(big);
    log(`sync: upload ${(uploadMs / 1000).toFixed(1)} s, ${stored.documents} documents`);

    const target = await device('New phone');
    await target.page.goto(`${base}/#/`);
    const downloadStarted = await turnOn(target, base, couch, big);
    await waitUntil(async () => {
      const counts = await countRecords(target.page);
      return counts.conversations >= initial.conversations && counts.messages >= messages;
    }, 3_600_000, 'the download');
    const downloadMs = Date.now() - downloadStarted;
    const download = couch.proxy.take();
    const statuses = await target.page.evaluate(() => window.__benchSyncStatuses);
    const progress = statuses.filter((text) => /^Syncing [\d,]+ of [\d,]+$/.test(text));
    const receives = await workerMeasures(target.page, RECEIVE_MEASURE);
    figures.initialSync = { importMs, exportMs, uploadMs, sealing, upload, downloadMs, download, stored, usageBefore, usageAfter, statuses: statuses.slice(0, 50), progressShown: progress.length };
    const label = `${initial.conversations} conversations / ${messages} messages`;
    rows.push(['sync', `initial sync, ${label}: C uploads (Turn on sync → all on the server)`, uploadMs, 'ms', 'exporting the same records on C', exportMs, `${stored.documents} documents`]);
    rows.push(['sync', `initial sync, ${label}: C seals its records into the mirror (worker time)`, sealing.ms, 'ms', '', undefined, `${sealing.documents} documents in ${sealing.batches} batches`]);
    rows.push(['sync', `initial sync, ${label}: bytes on the wire, upload (C → server)`, upload.up + upload.down, 'B', '', undefined, `${upload.up} up, ${upload.down} down`]);
    rows.push(['sync', `initial sync, ${label}: bytes on the server (documents as JSON)`, stored.documentBytes, 'B', '', undefined, `server reports ${JSON.stringify(stored.reported)}`]);
    rows.push(['sync', `initial sync, ${label}: the mirror on C's disk (IndexedDB growth)`, usageAfter - usageBefore, 'B', "C's records before sync", usageBefore]);
    rows.push(['sync', `initial sync, ${label}: D downloads (Turn on sync → every message in its store)`, downloadMs, 'ms', 'importing the same export on a fresh device (C)', importMs, `applying them ${receives.reduce((sum, entry) => sum + entry.duration, 0).toFixed(0)} ms of worker time in ${receives.length} batches`]);
    rows.push(['sync', `initial sync, ${label}: bytes on the wire, download (server → D)`, download.up + download.down, 'B', '', undefined, `${download.up} up, ${download.down} down`]);
    rows.push(['sync', `initial sync: "Syncing n of m" statuses D showed`, progress.length, '', '', undefined, progress.length ? `${progress[0]} … ${progress.at(-1)}` : statuses.join(' | ').slice(0, 200)]);
  }
}

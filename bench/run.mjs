// Parley's benchmark (`npm run bench`; run `npm run build` first). Serves dist/ with `vite preview`, starts the e2e
// provider server (a real local OpenAI-compatible SSE server), drives Chromium through the app's UI, and reports every
// figure next to a baseline measured in the same run, as medians of several repetitions: the machines are shared and
// noisy, so the ratios are what compare across runs.
//
//   node bench/run.mjs [--json <file>] [--nextchat-url <url>] [--dist <build directory>] [--quick] [--only <section>]
//
// Environment: CHROMIUM_PATH, BENCH_PORT (4196), BENCH_MCP_PORT (BENCH_PORT + 1), BENCH_TOKENS (50000).
import { existsSync, writeFileSync } from 'node:fs';
import { FIRST_LOAD_BUDGET_KIB, FIRST_REPLY_TARGET_KIB, firstLoadJs, firstReplyJs } from './first-load.mjs';
import { freshPage, launchBrowser, median, startPreview, startProviderServer } from './harness.mjs';
import { MANY_CONVERSATIONS, measureHostile } from './hostile.mjs';
import { measureStreamWithoutDevTools } from './bare-cdp.mjs';
import { APPROVAL_READ_MS, measureMcpApproval } from './mcp.mjs';
import { measureLocalModel } from './local-model.mjs';
import { measureNextChat } from './nextchat.mjs';
import { QUERIES, measureSearch } from './search.mjs';
import { measureCodeStream } from './code-stream.mjs';
import { measureSync } from './sync.mjs';
import {
  addServerProfile, measureAppLoad, measureBaselines, measureFirstSend, measureOpen, measureQuestionRound, measureStream, seedThroughImport,
} from './parley.mjs';
import { printTable } from './report.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const quick = args.includes('--quick');
const jsonFile = option('--json');
const nextChatUrl = option('--nextchat-url');
const distDirectory = option('--dist') ?? 'dist';
/**
 * `--only hostile` runs the hostile-input section alone (a quick before/after of the rendering cost caps), `--rounds n` times
 * (3), or part of it with `--hostile-parts open` (or `stream,import`); `--only stream`
 * runs the long stream alone, `--rounds n` times (5), with where its time goes; `--only search` runs search across
 * conversations alone; `--only latency` runs the load, reload and approval figures with the first-load bytes (`--rounds n` approvals, 5, each Allow
 * `--approval-read-ms` after its card showed, 6000 as a person reads it);
 * `--only sync` runs the sync figures (bench/sync.mjs), the initial sync at 100 conversations / 10,000 messages, or
 * at the 1,000 / 100,000 with `--sync-full` (or `--sync-conversations n`, 100 messages each); `--sync-parts
 * initial` (or `write,answer`, or `attachment`: a 5 MB image sent on one device until another shows it, or `tail`: a
 * reply streamed after 2, 40 and 160 messages, what each rewrite of its segment costs) runs part of it (with
 * BENCH_SYNC_TRACE=<file>, the initial upload's trace: the worker's sync marks and measures and its requests); `--only open` opens the 100-, 1,000- and 10,000-message conversations,
 * each the first open after a fresh load, `--rounds n` times each; `--only local-model` runs the in-browser model's
 * figures alone; `--only first-send` sends a message as soon as a new conversation's composer shows after a load;
 * `--only bytes` gives the first load's and the first reply's JavaScript alone.
 */
const only = option('--only');
const PORT = Number(process.env.BENCH_PORT ?? 4196);
/** server-everything's port (BENCH_MCP_PORT): the next one by default, which may be another run's BENCH_PORT on a shared machine. */
const MCP_PORT = Number(process.env.BENCH_MCP_PORT ?? PORT + 1);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 50_000);
const SHORT_TOKENS = 10_000;
const LONG_STREAM_TIMEOUT_MS = 90_000;
const SIZES = [100, 1000, 10_000];
const REPS = {
  load: quick ? 2 : 5,
  open: (count) => (quick ? 1 : count >= 10_000 ? 2 : count >= 1000 ? 3 : 5),
  stream: quick ? 1 : 3,
  longStream: 1,
  bareStream: quick ? 3 : 9,
  question: quick ? 2 : 5,
  baseline: 30,
};

if (!existsSync(`${distDirectory}/index.html`)) throw new Error(`No ${distDirectory}/index.html: run \`npm run build\` first.`);

const started = Date.now();
const log = (text) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}`);
const rows = [];
const add = (section, name, value, unit, baselineName, baseline, note = '') => rows.push({ section, name, value, unit, baselineName, baseline, ratio: baseline ? value / baseline : undefined, note });

const { base, stop } = await startPreview(PORT, distDirectory);
const provider = await startProviderServer();
const browser = await launchBrowser();
log('first load: every script a cold page and its worker fetch');
const firstLoad = await firstLoadJs(browser, base);
const firstReply = await firstReplyJs(browser, base);
const figures = { date: new Date().toISOString(), tokens: TOKENS, quick };
/** The longest task while hostile input is handled (target ≤ 200 ms). */
async function hostileRows() {
  log('hostile input: a 769 KB nested-list reply, and an import of 10,000 conversations');
  const hostile = await measureHostile(browser, base, provider, Number(option('--rounds') ?? (quick ? 1 : 3)), option('--hostile-parts')?.split(','));
  figures.hostile = hostile;
  const longest = (runs) => median(runs.map((run) => run.longTasks.longest));
  const each = (runs) => `rounds ${runs.map((run) => run.longTasks.longest.toFixed(0)).join(', ')}`;
  if (hostile.streams.length > 0) add('hostile', '769 KB nested-list reply: longest task while it streams', longest(hostile.streams), 'ms', '', undefined, `target ≤ 200 ms; Enter → complete ${median(hostile.streams.map((run) => run.enterToComplete)).toFixed(0)} ms`);
  if (hostile.imports.length > 0) add('hostile', `import ${MANY_CONVERSATIONS} conversations: longest task`, longest(hostile.imports), 'ms', '', undefined, `target ≤ 200 ms; file chosen → result ${median(hostile.imports.map((run) => run.chosenToResult)).toFixed(0)} ms`);
  for (const [label, runs] of Object.entries(hostile.bigMessages)) add('hostile', `open a finished ${label} nested-list reply after a load: longest task`, longest(runs), 'ms', '', undefined, `target ≤ 200 ms; click → painted ${median(runs.map((run) => run.clickToPainted)).toFixed(0)} ms; ${each(runs)}`);
}

/** Each seeded conversation opened `repetitions(count)` times, each the first open after a load (measureOpen). */
async function measureOpens(page, repetitions = REPS.open) {
  const opens = Object.fromEntries(SIZES.map((count) => [count, []]));
  const rounds = Math.max(...SIZES.map(repetitions));
  // Round by round, each size in turn: a busy spell on the machine falls on every size alike.
  for (let round = 0; round < rounds; round += 1) {
    const sizes = SIZES.filter((count) => round < repetitions(count));
    log(`opening the ${sizes.join(', ')}-message conversations, round ${round + 1} of ${rounds}, each after a fresh load`);
    for (const count of sizes) opens[count].push(await measureOpen(page, base, count));
  }
  return opens;
}

/** The open figures against the 100-message open. */
function openRows(opens) {
  const open100 = median(opens[100].map((run) => run.idle));
  for (const count of [1000, 10_000]) {
    const runs = opens[count];
    const inWorker = (run) => run.answered - run.sent;
    add('open', `open ${count} messages: conversation.open sent → answered`, median(runs.map(inWorker)), 'ms', 'open 100 messages', median(opens[100].map(inWorker)), `click → sent ${median(runs.map((run) => run.sent)).toFixed(0)} ms`);
    add('open', `open ${count} messages: click → last message painted`, median(runs.map((run) => run.painted)), 'ms', 'open 100 messages', median(opens[100].map((run) => run.painted)));
    add('open', `open ${count} messages: click → painted and idle`, median(runs.map((run) => run.idle)), 'ms', 'open 100 messages', open100);
    add('open', `open ${count} messages: longest task`, median(runs.map((run) => run.longTasks.longest)), 'ms', '', undefined, 'target ≤ 200 ms');
    add('open', `open ${count} messages: JS heap after GC`, median(runs.map((run) => run.heapMb)), 'MB');
    add('open', `open ${count} messages: DOM elements`, median(runs.map((run) => run.elements)), '');
  }
}

/** `--only open`: the seeded conversations opened after a fresh load (`--rounds n` times each), against the 100-message one. */
async function onlyOpenRows() {
  const { context, page } = await freshPage(browser, base);
  try {
    log(`seeding ${SIZES.join(', ')}-message conversations through Settings → Import`);
    await seedThroughImport(page, base, SIZES);
    const rounds = option('--rounds');
    const opens = await measureOpens(page, rounds === undefined ? REPS.open : () => Number(rounds));
    figures.opens = opens;
    add('baseline', 'open a 100-message conversation (click → painted, idle)', median(opens[100].map((run) => run.idle)), 'ms', '', undefined, `click → sent ${median(opens[100].map((run) => run.sent)).toFixed(0)} ms, → answered ${median(opens[100].map((run) => run.answered)).toFixed(0)} ms, → painted ${median(opens[100].map((run) => run.painted)).toFixed(0)} ms`);
    openRows(opens);
  } finally {
    await context.close();
  }
}

/** `--only first-send`: a message sent as soon as a new conversation's composer shows after a load, `--rounds n` times (9). */
async function firstSendRows() {
  const { context, page } = await freshPage(browser, base);
  try {
    await addServerProfile(page, base, provider.url);
    const runs = [];
    const rounds = Number(option('--rounds') ?? (quick ? 3 : 9));
    for (let round = 0; round < rounds; round += 1) {
      log(`first send after a load, round ${round + 1} of ${rounds}`);
      runs.push(await measureFirstSend(page, base, provider));
    }
    figures.firstSends = runs;
    const fetched = runs.map((run) => run.scriptsAfterEnter.length);
    add('first send', 'new conversation, send at once: Enter → request at the server', median(runs.map((run) => run.enterToRequest)), 'ms', '', undefined, `each after a fresh load; rounds ${runs.map((run) => run.enterToRequest.toFixed(0)).join(', ')}`);
    add('first send', 'scripts fetched after Enter', median(fetched), '', '', undefined, `per round ${fetched.join(', ')}; ${[...new Set(runs.flatMap((run) => run.scriptsAfterEnter))].join(' ')}`);
  } finally {
    await context.close();
  }
}

/** Figures of the in-browser model (local-model.mjs); a round that failed prints its reason instead. */
function localModelRows(localModel) {
  if (localModel.skipped) return;
  const mode = localModel.threads > 1 ? `multi-threaded (${localModel.threads} threads)` : 'single-threaded (1 thread per 2 cores)';
  add('local model', `tiny model: tokens per second, ${mode}`, localModel.tokensPerSecond, 'tok/s', '', undefined, localModel.isolated ? 'cross-origin isolated' : 'not isolated');
  if (localModel.multi) add('local model', `tiny model: tokens per second, multi-threaded (${localModel.multi.threads} threads, chosen in Settings)`, localModel.multi.tokensPerSecond, 'tok/s', 'automatic threads', localModel.tokensPerSecond);
  add('local model', 'send → first token, model loaded', localModel.warmFirstToken, 'ms', 'scripted model, same path', localModel.scriptedFirstToken);
  add('local model', 'send → first token, first reply after load (engine + model load)', localModel.coldFirstToken, 'ms', 'scripted model, same path', localModel.scriptedFirstToken);
}

/** `--only local-model`: the in-browser model alone, `--rounds n` replies (3). */
async function onlyLocalModelRows() {
  log('in-browser model');
  const localModel = await measureLocalModel(browser, base, Number(option('--rounds') ?? (quick ? 1 : 3)));
  figures.localModel = localModel;
  localModelRows(localModel);
  return localModel;
}

/** Search across conversations: query latency in the worker at 1k/10k/100k messages (target ≤ 65 ms at 100k). */
async function searchRows() {
  const search = await measureSearch(browser, base, quick ? 3 : 9, log);
  figures.search = search;
  for (const [count, figure] of Object.entries(search)) {
    add('search', `${count} messages: first search (load the index code, build the index)`, figure.firstSearch, 'ms', '', undefined, `build alone ${figure.build.toFixed(0)} ms`);
    add('search', `${count} messages: longest the build keeps the worker busy at once`, figure.longestSlice, 'ms', '', undefined, 'other commands wait at most this long behind the build');
    for (const [label, ms] of Object.entries(figure.queries)) add('search', `${count} messages: query "${QUERIES[label]}" (${label}), in the worker`, ms, 'ms', '', undefined, 'target ≤ 65 ms');
  }
}

/** Long stream alone: Enter → last token painted against the server's send time, and its parts. */
async function streamRows() {
  const rounds = Number(option('--rounds') ?? 5);
  const { context, page } = await freshPage(browser, base);
  try {
    await addServerProfile(page, base, provider.url);
    const runs = [];
    for (let round = 0; round < rounds; round += 1) {
      log(`streaming ${TOKENS} tokens, round ${round + 1} of ${rounds}`);
      const run = await measureStream(page, base, provider, TOKENS, LONG_STREAM_TIMEOUT_MS);
      log(`  ${(run.enterToPainted / run.serverSend).toFixed(2)}× (Enter → request ${run.enterToRequest.toFixed(0)} ms, server ${run.serverSend.toFixed(0)} ms, server done → painted ${run.serverDoneToPainted.toFixed(0)} ms)`);
      runs.push(run);
    }
    figures.longStreams = runs;
    const pick = (select) => median(runs.map(select));
    add('stream', `${TOKENS} tokens: Enter → last token painted`, pick((run) => run.enterToPainted), 'ms', "server's own send time", pick((run) => run.serverSend), `target ≤ 1.5×; median of ${rounds} ratios ${pick((run) => run.enterToPainted / run.serverSend).toFixed(2)}×`);
    add('stream', `${TOKENS} tokens: Enter → request at the server`, pick((run) => run.enterToRequest), 'ms');
    add('stream', `${TOKENS} tokens: server's last byte → last token painted`, pick((run) => run.serverDoneToPainted), 'ms');
    add('stream', `${TOKENS} tokens: long tasks while streaming`, pick((run) => run.longTasks.count), '', '', undefined, `longest ${pick((run) => run.longTasks.longest).toFixed(0)} ms`);
    add('stream', `${TOKENS} tokens: dropped frames while streaming`, pick((run) => run.frames.dropped), '', '', undefined, `worst gap ${pick((run) => run.frames.worstGap).toFixed(0)} ms`);
  } finally {
    await context.close();
  }
  await bareStreamRows(rounds);
}

/** Target figure: the long reply with no DevTools domain on the agent worker (bare-cdp.mjs). */
async function bareStreamRows(rounds) {
  log(`streaming ${TOKENS} tokens ×${rounds} with DevTools attached to the page only`);
  try {
    const runs = await measureStreamWithoutDevTools(base, provider, { tokens: TOKENS, rounds });
    figures.bareStreams = runs;
    add('stream', `${TOKENS} tokens, no DevTools on the worker: Enter → last token painted`, median(runs.map((run) => run.enterToPainted)), 'ms', "server's own send time", median(runs.map((run) => run.serverSend)), `target ≤ 1.5×; median of ${runs.length} ratios ${median(runs.map((run) => run.enterToPainted / run.serverSend)).toFixed(2)}×`);
  } catch (error) {
    add('stream', `${TOKENS} tokens, no DevTools on the worker: skipped (${error instanceof Error ? error.message.split('\n')[0] : error})`, Number.NaN, '');
  }
}

/**
 * Three figures and the first-load bytes alone (`--only latency`): app load → "New conversation" painted
 * and reload → pending question form painted against an empty page's load, Allow → the MCP tool request and → the next
 * model request against a postMessage round trip plus the server's latency.
 */
async function latencyRows() {
  log('page loads');
  const loads = await measureAppLoad(browser, base, REPS.load);
  const blankLoad = median(loads.blank);
  const { context, page } = await freshPage(browser, base);
  try {
    log('baselines');
    const baselines = await measureBaselines(page, base, provider.url, REPS.baseline);
    await addServerProfile(page, base, provider.url);
    const questions = [];
    for (let round = 0; round < REPS.question; round += 1) {
      log(`question round ${round + 1}`);
      questions.push(await measureQuestionRound(page, base, provider));
    }
    log('MCP approvals');
    const mcp = await measureMcpApproval(page, base, provider, MCP_PORT, Number(option('--rounds') ?? REPS.question), Number(option('--approval-read-ms') ?? APPROVAL_READ_MS));
    Object.assign(figures, { loads, baselines, questions, mcp });
    add('baseline', 'empty page load (navigation → painted)', blankLoad, 'ms');
    add('baseline', 'raw postMessage round trip', baselines.postMessageRoundTrip, 'ms');
    add('baseline', 'raw IndexedDB put (one transaction)', baselines.rawPut, 'ms');
    add('baseline', 'raw fetch from the page (provider server)', baselines.rawFetch, 'ms');
    add('load', 'app load → "New conversation" painted', median(loads.app), 'ms', 'empty page load', blankLoad);
    bytesRows();
    add('question', 'reload → pending question form painted', median(questions.map((run) => run.reloadToForm)), 'ms', 'empty page load', blankLoad);
    add('question', 'submit answers → next model request at the server', median(questions.map((run) => run.submitToRequest)), 'ms');
    mcpRows(mcp, baselines);
    return mcp;
  } finally {
    await context.close();
  }
}

/**
 * The approval figures against their floors: Allow → `tools/call` against postMessage + one IndexedDB commit (the
 * approval and the call's running mark) + the MCP server's own latency (target ≤ 1.5×); Allow → the next model request
 * against postMessage + two commits (that one and the result's) + the MCP server's latency + a raw fetch from the page to
 * the provider server (target ≤ 2×).
 */
function mcpRows(mcp, baselines) {
  if (mcp.skipped) return;
  const { postMessageRoundTrip, rawPut, rawFetch } = baselines;
  add('tools', 'Allow → tool request at the MCP server', mcp.clickToToolRequest, 'ms', 'postMessage + 1 commit + server latency', postMessageRoundTrip + rawPut + mcp.serverLatency, 'target ≤ 1.5×');
  add('tools', 'Allow → next model request at the provider', mcp.clickToNextModelRequest, 'ms', 'postMessage + 2 commits + both servers', postMessageRoundTrip + 2 * rawPut + mcp.serverLatency + rawFetch, 'target ≤ 2×');
  add('tools', 'MCP server latency (its own, per call)', mcp.serverLatency, 'ms');
  add('tools', 'IndexedDB transactions per approved call (all / readwrite)', mcp.transactions, '', '', undefined, `${mcp.writeTransactions} readwrite`);
  add('tools', 'HTTP requests at the MCP server per approved call', mcp.httpRequests, '', '', undefined, mcp.rounds.at(-1)?.requestKinds ?? '');
  add('tools', 'HTTP requests at the MCP server while the card was read', mcp.requestsWhileShown, '', '', undefined, 'readying the server: pings and their preflights');
}

/** `--only code`, the long reply made of code blocks (code-stream.mjs), `--rounds n` times (3). */
async function codeRows() {
  const code = await measureCodeStream(browser, base, provider, { tokens: TOKENS, rounds: Number(option('--rounds') ?? 3), timeoutMs: LONG_STREAM_TIMEOUT_MS, log });
  figures.codeStream = { runs: code.runs, bare: code.bare };
  for (const row of code.rows) add(...row);
}

/** The first load's and the first reply's JavaScript (measured before any section), against the budget and the target. */
function bytesRows() {
  add('load', `first-load JS gzip (${firstLoad.files.length} files)`, firstLoad.totalKiB, 'KiB', 'budget', FIRST_LOAD_BUDGET_KIB, firstLoad.totalKiB <= FIRST_LOAD_BUDGET_KIB ? 'PASS' : 'FAIL');
  add('load', `JS gzip to a first reply (${firstReply.files.length} files)`, firstReply.totalKiB, 'KiB', 'target', FIRST_REPLY_TARGET_KIB, firstReply.totalKiB <= FIRST_REPLY_TARGET_KIB ? 'PASS' : 'FAIL');
}

/** `--only bytes`: those two figures alone (seconds, not minutes), with each script a first reply fetches after the first load. */
async function onlyBytesRows() {
  bytesRows();
  const loaded = new Set(firstLoad.files.map((entry) => entry.file));
  for (const entry of firstReply.files) if (!loaded.has(entry.file)) add('load', `  after the first load: ${entry.file}`, entry.gzipKiB, 'KiB');
}

/** `--only sync` (sync.mjs): an answer on another device, a synced write's cost, an image sent to another device, the initial sync. */
async function syncRows() {
  const conversations = args.includes('--sync-full') ? 1000 : Number(option('--sync-conversations') ?? 100);
  const initial = { conversations, perConversation: 100 };
  const parts = option('--sync-parts')?.split(',') ?? ['write', 'answer', 'attachment', 'initial'];
  const sync = await measureSync(browser, base, provider, { rounds: Number(option('--rounds') ?? (quick ? 2 : 5)), initial, parts, log });
  figures.sync = sync.figures;
  for (const row of sync.rows) add(...row);
}

/** The sections `--only` runs alone (latency prints its own table, below). */
const ONLY = { hostile: hostileRows, stream: streamRows, search: searchRows, code: codeRows, sync: syncRows, open: onlyOpenRows, 'local-model': onlyLocalModelRows, 'first-send': firstSendRows, bytes: onlyBytesRows };

try {
  if (only === 'latency') {
    const mcp = await latencyRows();
    printTable(rows, { firstLoad, mcp, localModel: {}, elapsedSeconds: (Date.now() - started) / 1000 });
    if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ ...figures, rows }, null, 2)}\n`);
  } else if (only !== undefined && only in ONLY) {
    const localModel = await ONLY[only]();
    printTable(rows, { firstLoad, mcp: {}, localModel: only === 'local-model' ? localModel : {}, elapsedSeconds: (Date.now() - started) / 1000 });
    if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ ...figures, rows }, null, 2)}\n`);
  } else {
    log('page loads');
    const loads = await measureAppLoad(browser, base, REPS.load);
    const blankLoad = median(loads.blank);

    const fresh = await freshPage(browser, base);
    const { context } = fresh;
    let { page } = fresh;
    log('baselines');
    const baselines = await measureBaselines(page, base, provider.url, REPS.baseline);
    log(`seeding ${SIZES.join(', ')}-message conversations through Settings → Import`);
    await seedThroughImport(page, base, SIZES);

    const opens = await measureOpens(page);

    log('profile for the provider server');
    await addServerProfile(page, base, provider.url);
    // The short reply always finishes and compares builds; the long one may not finish
    // (a worker busy past the supervisor's ping timeout is restarted mid-answer): then it is reported, not fatal.
    const streams = [];
    for (let round = 0; round < REPS.stream; round += 1) {
      log(`streaming ${SHORT_TOKENS} tokens, round ${round + 1}`);
      streams.push(await measureStream(page, base, provider, SHORT_TOKENS));
    }
    const longStreams = [];
    let longStreamFailure;
    for (let round = 0; round < REPS.longStream && longStreamFailure === undefined; round += 1) {
      log(`streaming ${TOKENS} tokens, round ${round + 1}`);
      try {
        longStreams.push(await measureStream(page, base, provider, TOKENS, LONG_STREAM_TIMEOUT_MS));
      } catch (error) {
        longStreamFailure = error instanceof Error ? error.message.split('\n')[0] : String(error);
        log(`the ${TOKENS}-token reply did not finish: ${longStreamFailure}`);
        if (page.isClosed()) page = await context.newPage();
      }
    }
    const questions = [];
    for (let round = 0; round < REPS.question; round += 1) {
      log(`question round ${round + 1}`);
      questions.push(await measureQuestionRound(page, base, provider));
    }
    log('MCP approvals');
    const mcp = await measureMcpApproval(page, base, provider, MCP_PORT, REPS.question);
    await context.close();
    await hostileRows();
    await searchRows();
    log('in-browser model');
    const localModel = await measureLocalModel(browser, base, quick ? 1 : 3);

    const open100 = median(opens[100].map((run) => run.idle));
    const fetchPlusCommit = baselines.rawFetch + baselines.rawPut;
    add('baseline', 'empty page load (navigation → painted)', blankLoad, 'ms');
    add('baseline', 'raw fetch from the page (provider server)', baselines.rawFetch, 'ms');
    add('baseline', 'raw IndexedDB put (one transaction)', baselines.rawPut, 'ms');
    add('baseline', 'raw postMessage round trip', baselines.postMessageRoundTrip, 'ms');
    add('baseline', 'open a 100-message conversation (click → painted, idle)', open100, 'ms', 'empty page load', blankLoad);
    add('load', 'app load → "New conversation" painted', median(loads.app), 'ms', 'empty page load', blankLoad);
    bytesRows();
    openRows(opens);
    for (const [tokens, runs] of [[SHORT_TOKENS, streams], [TOKENS, longStreams]]) {
      if (runs.length === 0) {
        add('stream', `${tokens} tokens: did not finish (${longStreamFailure})`, Number.NaN, '');
        continue;
      }
      const streamMedian = (pick) => median(runs.map(pick));
      add('stream', `${tokens} tokens: Enter → last token painted`, streamMedian((run) => run.enterToPainted), 'ms', "server's own send time", streamMedian((run) => run.serverSend), tokens === TOKENS ? 'target ≤ 1.5×' : 'compares builds: mostly the first request\'s fixed cost');
      add('stream', `${tokens} tokens: long tasks while streaming`, streamMedian((run) => run.longTasks.count), '', '', undefined, `longest ${streamMedian((run) => run.longTasks.longest).toFixed(0)} ms, total ${streamMedian((run) => run.longTasks.total).toFixed(0)} ms`);
      add('stream', `${tokens} tokens: dropped frames while streaming`, streamMedian((run) => run.frames.dropped), '', '', undefined, `worst gap ${streamMedian((run) => run.frames.worstGap).toFixed(0)} ms`);
    }
    await bareStreamRows(REPS.bareStream);
    add('question', 'submit answers → next model request at the server', median(questions.map((run) => run.submitToRequest)), 'ms', 'raw fetch + one IndexedDB commit', fetchPlusCommit, 'target ≤ 3×');
    add('question', 'IndexedDB transactions, submit → next request (all / readwrite)', median(questions.map((run) => run.transactions)), '', '', undefined, `${median(questions.map((run) => run.writeTransactions))} readwrite`);
    add('question', 'reload → pending question form painted', median(questions.map((run) => run.reloadToForm)), 'ms', 'empty page load', blankLoad);
    localModelRows(localModel);
    mcpRows(mcp, baselines);
    Object.assign(figures, { loads, baselines, firstLoad, firstReply, opens, streams, longStreams, longStreamFailure, questions, mcp, localModel });

    if (nextChatUrl) {
      log(`NextChat at ${nextChatUrl}`);
      const nextChat = await measureNextChat(browser, nextChatUrl, provider, { sizes: [1000, 10_000], tokens: TOKENS, repetitions: { load: REPS.load, open: REPS.open, stream: REPS.stream } });
      figures.nextChat = nextChat;
      const ncBlank = median(nextChat.blank);
      if (nextChat.load.length > 0) add('NextChat', 'NextChat load → composer painted', median(nextChat.load), 'ms', 'its empty page load', ncBlank);
      else add('NextChat', `load skipped: ${nextChat.loadSkipped}`, Number.NaN, '');
      for (const count of [1000, 10_000]) {
        const runs = nextChat.open[count];
        if (!Array.isArray(runs)) {
          add('NextChat', `open ${count} skipped: ${runs?.skipped}`, Number.NaN, '');
          continue;
        }
        add('NextChat', `NextChat open ${count}: click → painted and idle`, median(runs.map((run) => run.idle)), 'ms', 'Parley, same figure', median(opens[count].map((run) => run.idle)));
        add('NextChat', `NextChat open ${count}: longest task`, median(runs.map((run) => run.longTasks.longest)), 'ms');
        add('NextChat', `NextChat open ${count}: JS heap / DOM elements`, median(runs.map((run) => run.heapMb)), 'MB', '', undefined, `${median(runs.map((run) => run.elements))} elements`);
      }
      if (nextChat.stream.length > 0) {
        const pick = (select) => median(nextChat.stream.map(select));
        add('NextChat', `NextChat ${TOKENS} tokens: Enter → last token painted`, pick((run) => run.enterToPainted), 'ms', "server's own send time", pick((run) => run.serverSend));
        add('NextChat', 'NextChat long tasks / dropped frames while streaming', pick((run) => run.longTasks.count), '', '', undefined, `${pick((run) => run.frames.dropped)} dropped frames`);
      } else add('NextChat', `stream skipped: ${nextChat.streamSkipped}`, Number.NaN, '');
    }

    printTable(rows, { firstLoad, mcp, localModel, elapsedSeconds: (Date.now() - started) / 1000 });
    figures.rows = rows;
    if (jsonFile) {
      writeFileSync(jsonFile, `${JSON.stringify(figures, null, 2)}\n`);
      log(`figures written to ${jsonFile}`);
    }
  }
} finally {
  await browser.close();
  await provider.close();
  stop();
}

// Benchmark item: a 50,000-token reply full of code blocks (fenced ```ts blocks of realistic lines, from the
// provider server's `tokensKind: 'code'`) streams in ≤ 1.5× the server's own send time, with no long task. The same
// measurements as the word stream's (parley.mjs, bare-cdp.mjs); only the reply differs, so the two compare directly.
import { freshPage, median } from './harness.mjs';
import { measureStreamWithoutDevTools } from './bare-cdp.mjs';
import { addServerProfile, measureStream } from './parley.mjs';

/** The provider server, with every long reply the measurements ask for made of code blocks instead of words. */
function codeReplies(provider) {
  return { ...provider, enqueue: (...replies) => provider.enqueue(...replies.map((reply) => (reply.tokens !== undefined ? { ...reply, tokensKind: 'code' } : reply))) };
}

/**
 * Streams `tokens` tokens of code `rounds` times with Playwright (long tasks and dropped frames are recorded there), then
 * `rounds` times with DevTools attached to the page only (the figure held to the target, see bare-cdp.mjs). Returns
 * rows for the report.
 */
export async function measureCodeStream(browser, base, provider, { tokens, rounds, timeoutMs, log }) {
  const code = codeReplies(provider);
  const rows = [];
  const { context, page } = await freshPage(browser, base);
  const runs = [];
  try {
    await addServerProfile(page, base, provider.url);
    for (let round = 0; round < rounds; round += 1) {
      log(`streaming ${tokens} tokens of code blocks, round ${round + 1} of ${rounds}`);
      const run = await measureStream(page, base, code, tokens, timeoutMs);
      log(`  ${(run.enterToPainted / run.serverSend).toFixed(2)}×, ${run.longTasks.count} long tasks (longest ${run.longTasks.longest.toFixed(0)} ms)`);
      runs.push(run);
    }
  } finally {
    await context.close();
  }
  const pick = (select) => median(runs.map(select));
  rows.push(['code', `${tokens} tokens of code blocks: Enter → last token painted`, pick((run) => run.enterToPainted), 'ms', "server's own send time", pick((run) => run.serverSend), `median of ${rounds} ratios ${pick((run) => run.enterToPainted / run.serverSend).toFixed(2)}×`]);
  rows.push(['code', `${tokens} tokens of code blocks: long tasks while streaming`, pick((run) => run.longTasks.count), '', '', undefined, `target 0; longest ${pick((run) => run.longTasks.longest).toFixed(0)} ms, total ${pick((run) => run.longTasks.total).toFixed(0)} ms`]);
  rows.push(['code', `${tokens} tokens of code blocks: dropped frames while streaming`, pick((run) => run.frames.dropped), '', '', undefined, `worst gap ${pick((run) => run.frames.worstGap).toFixed(0)} ms`]);

  log(`streaming ${tokens} tokens of code blocks ×${rounds} with DevTools attached to the page only`);
  let bare = [];
  try {
    bare = await measureStreamWithoutDevTools(base, code, { tokens, rounds });
    rows.push(['code', `${tokens} tokens of code blocks, no DevTools on the worker: Enter → last token painted`, median(bare.map((run) => run.enterToPainted)), 'ms', "server's own send time", median(bare.map((run) => run.serverSend)), `target ≤ 1.5×; median of ${bare.length} ratios ${median(bare.map((run) => run.enterToPainted / run.serverSend)).toFixed(2)}×`]);
  } catch (error) {
    rows.push(['code', `${tokens} tokens of code blocks, no DevTools on the worker: skipped (${error instanceof Error ? error.message.split('\n')[0] : error})`, Number.NaN, '']);
  }
  return { rows, runs, bare };
}

// The long reply measured as a user's browser runs it: Chromium driven over a bare DevTools pipe that is attached to
// the page alone. Playwright attaches to every worker and enables the Network domain there; DevTools then keeps a copy
// of each response body and, when the request completes, decodes the whole body as text on the worker's own thread
// (a 48 ms task at the end of an 8.8 MB reply, in a trace), just when the reply's last events are being read.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, instrumentPage, sleep } from './harness.mjs';
import { addServerProfile, chatRequests, PROFILE_NAME, STREAM_END } from './parley.mjs';

/**
 * `rounds` replies of `tokens` tokens (after one to warm up), each in a new conversation: Enter → the reply painted as
 * complete, against the server's own send time. The provider profile is added through Settings with Playwright first,
 * in the same browser profile, which is then closed. Service workers run, as they do for a user.
 */
export async function measureStreamWithoutDevTools(base, provider, { tokens, rounds }) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'parley-bench-bare-'));
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  let child;
  try {
    const setup = await chromium.launchPersistentContext(userDataDir, { executablePath, args: CHROMIUM_ARGS, serviceWorkers: 'block' });
    await addServerProfile(setup.pages()[0] ?? (await setup.newPage()), base, provider.url);
    await setup.close();

    child = spawn(executablePath, [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-pipe', `--user-data-dir=${userDataDir}`, '--window-size=1280,800', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const browser = pipeClient(child);
    const { targetInfos } = await browser.send('Target.getTargets');
    const target = targetInfos.find((info) => info.type === 'page');
    const { sessionId } = await browser.send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    const page = (method, params) => browser.send(method, params, sessionId);
    await page('Page.enable');
    await page('Page.addScriptToEvaluateOnNewDocument', { source: `(${instrumentPage.toString()})()` });
    const evaluate = async (expression) => {
      const { result, exceptionDetails } = await page('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return result.value;
    };
    const until = async (expression, what) => {
      for (let attempt = 0; attempt < 1200; attempt += 1) {
        if (await evaluate(expression).catch(() => false)) return;
        await sleep(50);
      }
      throw new Error(`timed out waiting for ${what}`);
    };

    const runs = [];
    for (let round = 0; round <= rounds; round += 1) {
      // After the first round this changes only the hash, as the Playwright rounds do: the app and its worker stay warm.
      await page('Page.navigate', { url: `${base}/#/` });
      await until(`location.hash === '#/' && !!document.querySelector('button.new-conversation')`, '"New conversation"');
      await evaluate(`document.querySelector('button.new-conversation').click()`);
      // The new conversation's own picker: the one of the round before is gone once the hash names a conversation.
      await until(`/^#\\/c\\/[^/]+$/.test(location.hash) && [...document.querySelectorAll('.profile-picker select option')].some((option) => option.textContent === ${JSON.stringify(PROFILE_NAME)})`, 'the profile picker');
      await evaluate(`(() => {
        const select = document.querySelector('.profile-picker select');
        select.value = [...select.options].find((option) => option.textContent === ${JSON.stringify(PROFILE_NAME)}).value;
        select.dispatchEvent(new Event('change', { bubbles: true }));
        const box = document.querySelector('.composer textarea');
        box.focus();
        box.value = 'Write a very long answer.';
        box.dispatchEvent(new InputEvent('input', { bubbles: true }));
        window.__benchEnterAt = undefined;
        document.addEventListener('keydown', (event) => event.key === 'Enter' && (window.__benchEnterAt ??= event.timeStamp), { capture: true });
      })()`);
      await until(`[...document.querySelectorAll('select')].some((select) => select.selectedOptions[0]?.textContent === ${JSON.stringify(PROFILE_NAME)})`, 'the profile chosen');
      provider.enqueue({ tokens, tokensEnd: STREAM_END, burst: true });
      const before = chatRequests(provider).length;
      const painted = evaluate(`window.__bench.untilPainted(() => {
        const articles = document.querySelectorAll('[role="log"] article');
        const last = articles[articles.length - 1];
        return last?.getAttribute('aria-label') === 'Parley' && last.getAttribute('data-status') === 'complete';
      }, 120000, { onMutation: true }).then((at) => at - window.__benchEnterAt)`);
      await page('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' });
      await page('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
      const enterToPainted = await painted;
      for (let wait = 0; wait < 500 && chatRequests(provider)[before]?.answeredAt === undefined; wait += 1) await sleep(10);
      const request = chatRequests(provider)[before];
      // The first round loads the provider's code and warms the worker up.
      if (round > 0) runs.push({ enterToPainted, serverSend: request.answeredAt - request.receivedAt });
    }
    return runs;
  } finally {
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    }
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** A minimal DevTools protocol client over `--remote-debugging-pipe` (NUL-separated JSON messages). */
function pipeClient(child) {
  const [input, output] = [child.stdio[3], child.stdio[4]];
  let lastId = 0;
  const waiting = new Map();
  let buffer = '';
  // A browser that exits fails what waits for it, so the run reports the row as skipped instead of hanging.
  child.once('exit', (code, signal) => {
    for (const entry of waiting.values()) entry.reject(new Error(`Chromium exited (${signal ?? code}) during ${entry.method}`));
    waiting.clear();
  });
  output.setEncoding('utf8');
  output.on('data', (data) => {
    buffer += data;
    for (let end = buffer.indexOf('\0'); end >= 0; end = buffer.indexOf('\0')) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      const entry = waiting.get(message.id);
      if (entry === undefined) continue;
      waiting.delete(message.id);
      if (message.error) entry.reject(new Error(`${entry.method}: ${message.error.message}`));
      else entry.resolve(message.result);
    }
  });
  return {
    send(method, params = {}, sessionId) {
      lastId += 1;
      input.write(`${JSON.stringify({ id: lastId, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      return new Promise((resolve, reject) => waiting.set(lastId, { resolve, reject, method }));
    },
  };
}

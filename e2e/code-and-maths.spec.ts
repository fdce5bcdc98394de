import { expect, test } from '@playwright/test';
import { assistantMessages, cutNetwork, newConversation, send, userMessages, useScript, waitForServiceWorker } from './fixtures';
import { PHONE } from './phone-helpers';

/** The lazily loaded chunks (vite names them after their entry files). */
const RICH_CHUNKS = /\/assets\/(rich-content|highlighter|katex-typeset|typescript|javascript)-[\w-]+\.(js|css)$/;

/** A TypeScript block of `count` short lines (short, so 5,000 of them stay under the "Show all" limit). */
function typescriptLines(count: number): string {
  const unit = ['/* block', '   note */', 'let a = 1;', 'const s = "x";', 'if (a > 2) {', '  a += 3;', '}', 'type T = number;', '// done'];
  return Array.from({ length: count }, (_, index) => unit[index % unit.length]).join('\n');
}

test('Copy puts a reply\'s Markdown and a code block\'s code on the clipboard, and says "Copied"', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const reply = 'Here is **bold** and code:\n\n```ts\nconst answer: number = 42;\nconsole.log(answer);\n```\n\nDone.';
  await page.goto('/');
  await useScript(page, [{ text: reply }]);
  await newConversation(page);
  await send(page, 'Show me code');
  const message = assistantMessages(page).first();
  await expect(message).toHaveAttribute('data-status', 'complete');

  await message.hover();
  await message.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(message.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1);
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(reply);

  await message.getByRole('button', { name: 'Copy code', exact: true }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('const answer: number = 42;\nconsole.log(answer);');
  await expect(message.locator('.code-block').getByRole('status')).toHaveText('Copied');
  // The language is shown, and the code is coloured once the highlighter arrived.
  await expect(message.locator('.code-language')).toHaveText('ts');
  await expect(message.locator('code .hljs-keyword').first()).toHaveText('const');

  // The user's own message can be copied too, from the keyboard: the row is in the tab order.
  await expect(page.getByRole('article', { name: 'You', exact: true }).getByRole('button', { name: 'Copy', exact: true })).toHaveCount(1);
});

test('at 1280 px, tabbing onto a reply shows its actions, and Copy works from the keyboard alone', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await useScript(page, [{ text: 'A reply to copy by **keyboard**.' }]);
  await newConversation(page);
  await send(page, 'Hello');
  const reply = assistantMessages(page).first();
  await expect(reply).toHaveAttribute('data-status', 'complete');
  const row = reply.locator('.message-actions');
  const copy = reply.getByRole('button', { name: 'Copy', exact: true });
  // With a pointer elsewhere and the focus in the composer, the row is out of sight (it keeps its room).
  await page.mouse.move(0, 0);
  await expect(row).toHaveCSS('opacity', '0');

  // Back from the composer with Shift+Tab, as a keyboard user goes, until the reply's Copy has the focus.
  await page.getByRole('textbox', { name: 'Message', exact: true }).focus();
  for (let presses = 0; presses < 20 && !(await copy.evaluate((button) => button === document.activeElement)); presses += 1) {
    await page.keyboard.press('Shift+Tab');
  }
  await expect(copy).toBeFocused();
  await expect(row).toHaveCSS('opacity', '1');
  await page.keyboard.press('Enter');
  await expect(reply.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1);
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('A reply to copy by **keyboard**.');
});

// How the colouring keeps up is checked without a clock: the component test counts the characters the highlighter is
// given (about once each, never once per update). Long tasks are timing, and timing on a shared machine is not a test.
test('a 5,000-line code block streams and ends coloured whole, not a character lost', async ({ page }) => {
  // 95,000 characters streamed, coloured and checked: about 40 s alone on a busy 2-core machine, more beside other tests.
  test.setTimeout(180_000);
  const code = typescriptLines(5_000);
  expect(code.length).toBeLessThan(95_000);
  await page.goto('/');
  // Warm the highlighter and TypeScript with a first reply, so the streamed block measures colouring, not loading.
  await useScript(page, { steps: [{ text: '```ts\nlet warm = 1;\n```' }, { text: `Here:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThe end.` }], chunkSize: 160, chunkDelayMs: 4 });
  await newConversation(page);
  await send(page, 'Warm up');
  await expect(assistantMessages(page).first().locator('.hljs-keyword')).toHaveText('let');

  await send(page, 'A long file, please');
  // Waited for inside the page, with cheap CSS queries every 100 ms: Playwright's role and text locators walk the whole
  // 5,000-line block in the page's main thread, and would be the long tasks this test looks for.
  const done = await page.evaluate(
    () =>
      new Promise<{ sawStreaming: boolean; ifs: number }>((resolve) => {
        let sawStreaming = false;
        const check = () => {
          const streaming = document.querySelector('article.message-assistant[data-status="streaming"]') !== null;
          sawStreaming ||= streaming;
          // The keywords are counted only once the reply has ended: counting them through a growing 5,000-line block
          // every 100 ms took the page's main thread from the app on a busy machine.
          if (sawStreaming && !streaming) {
            const code = [...document.querySelectorAll('article.message-assistant pre code')].at(-1);
            const ifs = code ? [...code.querySelectorAll('.hljs-keyword')].filter((keyword) => keyword.textContent === 'if').length : 0;
            // Coloured to its last line: the last of 556 `if`s is on it.
            if (ifs === 556) return resolve({ sawStreaming, ifs });
          }
          setTimeout(check, 100);
        };
        check();
      }),
  );
  expect(done).toEqual({ sawStreaming: true, ifs: 556 });

  const message = assistantMessages(page).filter({ hasText: 'Here:' });
  await expect(message).toHaveAttribute('data-status', 'complete');
  await expect(message).toContainText('The end.');
  const block = message.locator('pre code');
  // Each two-line comment is one span, as colouring the block at once makes it; not a character is lost.
  expect(await block.locator('.hljs-comment').count()).toBe(556 * 2 - 1);
  expect(await block.evaluate((element) => element.textContent)).toBe(`${code}\n`);
});

test('a Markdown bomb inside a code fence and a maths bomb each get a clear message, and nothing else is lost', async ({ page }) => {
  const bombLine = '*['.repeat(20_000);
  const reply = [
    'Before the bombs.',
    '',
    '```markdown',
    `${'> '.repeat(50)}${bombLine}`,
    '- [ ] still code',
    '```',
    '',
    'Expansion: $\\def\\a{\\a\\a}\\a$ and size $\\rule{100000em}{100000em}$ and fine $x^2$.',
    '',
    '$$\\def\\b{\\b\\b\\b}\\b$$',
    '',
    '- [x] shipped',
    '- [ ] tested',
    '',
    'After the bombs.',
  ].join('\n');
  await page.goto('/');
  await useScript(page, { steps: [{ text: reply }], chunkSize: 4_000, chunkDelayMs: 10 });
  await newConversation(page);
  await send(page, 'Bombs');
  const message = assistantMessages(page).first();
  await expect(message).toHaveAttribute('data-status', 'complete');
  await expect(message).toContainText('Before the bombs.');
  await expect(message).toContainText('After the bombs.');
  // The code keeps every character, uncoloured, and says why.
  await expect(message.locator('.code-note')).toHaveText('Shown without colours: a line of this code is too long to colour.');
  expect(await message.locator('pre code').evaluate((element) => element.textContent)).toBe(`${'> '.repeat(50)}${bombLine}\n- [ ] still code\n`);
  // Both expansion bombs stop with KaTeX's reason; the huge rule is capped; ordinary maths still renders.
  await expect(message.locator('.math-note')).toHaveCount(2);
  await expect(message.locator('.math-note').first()).toContainText('This maths could not be shown');
  await expect(message.locator('.math-note').first()).toContainText('Too many expansions');
  await expect(message.locator('.katex')).toHaveCount(2);
  await expect(message.locator('.katex .mord.mathnormal').filter({ hasText: 'x' })).toHaveCount(1);
  const ruleHeight = await message.locator('.katex .katex-rule').evaluate((rule) => rule.getBoundingClientRect().height);
  expect(ruleHeight).toBeLessThan(2_000);
  // Task lists render as disabled checkboxes.
  await expect(message.getByRole('checkbox')).toHaveCount(2);
  await expect(message.getByRole('checkbox', { name: 'Done', exact: true })).toBeChecked();
  await expect(message.getByRole('checkbox', { name: 'Not done' })).toBeDisabled();
});

test('maths in all four delimiters is typeset; light, dark, wide and narrow screenshots', async ({ page }, testInfo) => {
  const reply = [
    'Inline $e^{i\\pi} + 1 = 0$ and \\(\\sqrt{2}\\), cost $5 and $10 stay prose.',
    '',
    '$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$',
    '',
    '\\[\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}\\]',
    '',
    '```python',
    'def area(r: float) -> float:',
    '    """Area of a circle."""',
    '    return 3.14159 * r ** 2  # approx',
    '```',
    '',
    '- [x] write the code',
    '- [ ] check the maths',
  ].join('\n');
  // The page's Content-Security-Policy refuses what is not the app's own files: a font inlined as `data:` was refused.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) refused.push(message.text().slice(0, 200));
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await useScript(page, [{ text: reply }]);
  await newConversation(page);
  await send(page, 'Maths');
  const message = assistantMessages(page).first();
  await expect(message).toHaveAttribute('data-status', 'complete');
  await expect(message.locator('.katex')).toHaveCount(4);
  await expect(message.locator('.katex-display')).toHaveCount(2);
  await expect(message).toContainText('cost $5 and $10 stay prose.');
  await expect(message.locator('.math-note')).toHaveCount(0);
  await expect(message.locator('.hljs-keyword').first()).toHaveText('def');
  // KaTeX's fonts are loaded (bundled, same origin), so the maths is not drawn in a fallback font.
  await expect.poll(() => page.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);
  // Every font face the maths may need is a file of the app's, none inlined as `data:`, which the CSP refuses.
  const inlinedFonts = await page.evaluate(
    () => [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]).filter((rule) => rule instanceof CSSFontFaceRule && /url\(\s*["']?data:/.test(rule.cssText)).length,
  );
  expect(inlinedFonts).toBe(0);
  expect(refused).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
      await page.setViewportSize(size);
      await message.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`maths-${scheme}-${size.width}.png`) });
    }
  }
});

test('the first load of a conversation without code or maths fetches neither the highlighter nor KaTeX', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Just words, **no code** and no maths.' }, { text: 'Now code:\n\n```ts\nlet x = 1;\n```' }]);
  const id = await newConversation(page);
  await send(page, 'Hello');
  await expect(assistantMessages(page).first()).toHaveAttribute('data-status', 'complete');

  // A cold load: a fresh page (new JS realm) opening that conversation, every script response recorded.
  const fetched: string[] = [];
  const cold = await page.context().newPage();
  cold.on('response', (response) => fetched.push(new URL(response.url()).pathname));
  await cold.goto(`/#/c/${encodeURIComponent(id)}`);
  await expect(assistantMessages(cold).first()).toContainText('Just words, no code and no maths.');
  await expect(assistantMessages(cold).first().getByRole('button', { name: 'Copy', exact: true })).toHaveCount(1);
  expect(fetched.filter((path) => path.endsWith('.js')).length).toBeGreaterThan(0);
  expect(fetched.filter((path) => RICH_CHUNKS.test(path))).toEqual([]);

  // The same page then loads them when a reply needs them (so the pattern above names the real chunks).
  await send(cold, 'And code?');
  await expect(assistantMessages(cold).filter({ hasText: 'Now code:' }).locator('.hljs-keyword')).toHaveText('let');
  expect(fetched.filter((path) => RICH_CHUNKS.test(path)).length).toBeGreaterThanOrEqual(3);
  expect(fetched.some((path) => /katex/.test(path))).toBe(false);
});

test('offline, maths and colours still load (KaTeX, its woff2 fonts and the highlighter are precached)', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, [{ text: 'Offline $\\frac{a}{b}$ and\n\n```js\nconst z = 0;\n```' }]);
  // Offline as a user meets it, not `navigator.onLine` (Debian's Chromium keeps it true under emulation):
  // every request that would leave the browser is recorded and refused, so what loads below came from the cache.
  const reachedNetwork = await cutNetwork(context);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();
  await newConversation(page);
  await send(page, 'Offline maths');
  const message = assistantMessages(page).first();
  await expect(message).toContainText('Offline');
  await expect(message.locator('.katex .mfrac')).toHaveCount(1);
  await expect(message.locator('.hljs-keyword')).toHaveText('const');
  await expect.poll(() => page.evaluate(async () => (await document.fonts.load('16px KaTeX_Main')).length)).toBeGreaterThan(0);
  expect(reachedNetwork).toEqual([]);
});

test.describe('on a touch screen', () => {
  test.use(PHONE);

  test('a reply\'s Copy is in view; your own message\'s opens with "Message actions"', async ({ page, context }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await useScript(page, [{ text: 'A reply to copy, with `code`.' }]);
    await newConversation(page);
    await send(page, 'Hi there');
    const reply = assistantMessages(page).first();
    await expect(reply).toHaveAttribute('data-status', 'complete');
    await reply.getByRole('button', { name: 'Copy', exact: true }).tap();
    await expect(reply.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1);
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('A reply to copy, with `code`.');

    const mine = userMessages(page).first();
    const copy = mine.getByRole('button', { name: 'Copy', exact: true });
    await expect(copy).toBeHidden();
    const more = mine.getByRole('button', { name: 'Message actions', exact: true });
    await more.tap();
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await copy.tap();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('Hi there');
    await page.screenshot({ path: testInfo.outputPath('actions-touch.png') });
  });
});

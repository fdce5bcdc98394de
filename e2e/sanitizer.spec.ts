import { expect, test } from '@playwright/test';
import { assistantMessages, messageLog, newConversation, send, useScript } from './fixtures';

declare global {
  interface Window {
    __pwned?: number;
  }
}

const hostileReply = [
  'Before the payload.',
  '',
  '<img src=x onerror="window.__pwned=1">',
  '',
  'Here is a [link](javascript:window.__pwned=2) to click.',
  '',
  '<script>window.__pwned=3</script>',
  '',
  'After the payload.',
].join('\n');

test('hostile model output is rendered inert', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: hostileReply }]);
  await newConversation(page);
  // The user's own text goes through the same screen; it must stay text too.
  await send(page, 'Show me <img src=y onerror="window.__pwned=4">');

  const reply = assistantMessages(page).first();
  await expect(reply).toHaveAttribute('data-status', 'complete');
  await expect(reply).toContainText('Before the payload.');
  await expect(reply).toContainText('After the payload.');

  const log = messageLog(page);
  await expect(log.locator('script')).toHaveCount(0);
  await expect(log.locator('iframe, object, embed')).toHaveCount(0);
  // No element in the log carries an event-handler attribute or a script URL.
  const unsafe = await log.evaluate((root) =>
    [root, ...root.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes]
        .filter(
          (attribute) =>
            attribute.name.toLowerCase().startsWith('on') ||
            /^(javascript|vbscript):/i.test(attribute.value.replace(/[\u0000-\u0020]/g, '')) ||
            (/^(href|action|formaction|xlink:href)$/i.test(attribute.name) && /^\s*data:/i.test(attribute.value)),
        )
        .map((attribute) => `<${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value}">`),
    ),
  );
  expect(unsafe).toEqual([]);

  // Let any image that was rendered finish loading or failing, so an error handler would have fired by now.
  await page.waitForFunction(() => [...document.querySelectorAll('[role="log"] img')].every((image) => (image as HTMLImageElement).complete));

  const urlBefore = page.url();
  await reply.getByText('link', { exact: true }).click();
  await expect(reply).toBeVisible();
  expect(page.url()).toBe(urlBefore);
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
});

test('a reply cannot draw a fake dialog or notice over the app', async ({ page }) => {
  const fakeDialog = [
    'Your session needs attention.',
    '',
    '<div class="dialog-backdrop"><div class="dialog" role="dialog" style="position:fixed;inset:0;z-index:9999"><h2>Session expired</h2><a class="button primary" href="https://evil.example/login">Sign in again</a></div></div>',
    '',
    '<div class="toasts"><div class="toast" role="alert">Your API key was revoked</div></div>',
    '',
    'Or [Sign in again](https://evil.example/login).',
  ].join('\n');
  await page.goto('/');
  await useScript(page, [{ text: fakeDialog }]);
  await newConversation(page);
  await send(page, 'Hello');
  const reply = assistantMessages(page).first();
  await expect(reply).toHaveAttribute('data-status', 'complete');

  // No dialog, no alert, nothing of the app's own look came from the reply.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'revoked' })).toHaveCount(0);
  // (In the reply's body: the message's own actions, Regenerate and the like, are the app's.)
  await expect(reply.locator('.markdown').first()).toBeVisible();
  await expect(reply.locator('.markdown').locator('[class*="dialog"], [class*="toast"], [class*="button"], [style]')).toHaveCount(0);
  // Every control stays reachable: the point at the centre of Settings is Settings itself.
  const settings = page.getByRole('button', { name: 'Settings', exact: true });
  const box = (await settings.boundingBox())!;
  const topmost = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.textContent?.trim(), [box.x + box.width / 2, box.y + box.height / 2]);
  expect(topmost).toBe('Settings');
  // The one real link says where it goes.
  await expect(reply.getByRole('link', { name: 'Sign in again (evil.example)' })).toHaveAttribute('href', 'https://evil.example/login');
});

test.describe('the browser\'s own sanitizer', () => {
  // The sanitizer module as the app builds it, run in this Chromium, which has the HTML Sanitizer API: the component
  // tests cover the DOMPurify fallback (jsdom has no such API); these hold the browser's path to the same rules.
  let code = '';
  test.beforeAll(async () => {
    const { rolldown } = await import('rolldown');
    const bundle = await rolldown({ input: 'src/ui/markdown/sanitize.ts', logLevel: 'silent' });
    code = (await bundle.generate({ format: 'iife', name: 'ParleySanitize', codeSplitting: false })).output[0].code;
  });

  async function sanitized(page: import('@playwright/test').Page, html: string) {
    await page.setContent('<!doctype html><body></body>');
    await page.addScriptTag({ content: code });
    return page.evaluate(async (markup) => {
      const api = (window as unknown as { ParleySanitize: { prepareSanitizer(): Promise<void>; sanitize(html: string): DocumentFragment; usesBrowserSanitizer(): boolean } }).ParleySanitize;
      await api.prepareSanitizer();
      const host = document.createElement('div');
      host.append(api.sanitize(markup));
      document.body.append(host);
      return { native: api.usesBrowserSanitizer(), html: host.innerHTML };
    }, html);
  }

  test('drops what DOMPurify drops, and the app\'s classes and ids, with the same rules', async ({ page }) => {
    const { native, html } = await sanitized(
      page,
      '<b onclick="window.__pwned = 1">bold</b><img src="x.png" onerror="window.__pwned = 2"><script>window.__pwned = 3</script>'
        + '<div class="dialog" id="root" name="n" style="position:fixed">fake</div><a href="javascript:alert(1)" ping="https://evil.example">link</a>'
        + '<form action="https://evil.example"><input name="password"></form><svg><a href="https://evil.example">s</a></svg><math><mi>x</mi></math>'
        + '<table background="https://evil.example/t"><tr><td>t</td></tr></table><iframe src="https://evil.example"></iframe><object data="x"></object>'
        + '<template><b>t</b></template><style>body{display:none}</style><map><area href="javascript:alert(2)"></map><blockquote cite="https://evil.example">q</blockquote>'
        + '<input type="checkbox" disabled onclick="x()" name="n" class="dialog" value="v"><input type="checkbox"><input type="text" disabled>'
        + '<span class="link-destination">(a.example)</span><span class="toasts">n</span><pre><code class="language-ts">x</code></pre><a href="https://a.example">ok</a>',
    );
    expect(native).toBe(true);
    await expect(page.locator('body')).toContainText('bold');
    const body = page.locator('body > div');
    await expect(body.locator('[onclick], [onerror], script, img, form, svg, math, iframe, object, template, style, [style], [id], [name], [ping], [background], [cite]')).toHaveCount(0);
    await expect(body.locator('.dialog, .toasts')).toHaveCount(0);
    await expect(body.locator('[href^="javascript"], area[href]')).toHaveCount(0);
    await expect(body.locator('input')).toHaveCount(1);
    expect(await body.locator('input').evaluate((input) => [...input.attributes].map((attribute) => attribute.name).sort())).toEqual(['disabled', 'type']);
    await expect(body.locator('span.link-destination')).toHaveCount(1);
    await expect(body.locator('code.language-ts')).toHaveCount(1);
    await expect(body.locator('pre')).toHaveAttribute('tabindex', '0');
    await expect(body.locator('a[href="https://a.example"]')).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(body.locator('a[href="https://a.example"]')).toHaveAttribute('target', '_blank');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(html).not.toContain('evil.example');
  });
});

test('a reply is rendered without fetching DOMPurify where the browser sanitizes by itself', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) scripts.push(new URL(response.url()).pathname);
  });
  await page.goto('/');
  await useScript(page, [{ text: 'Some **bold** text.' }]);
  await newConversation(page);
  await send(page, 'Hello');
  const reply = assistantMessages(page).first();
  await expect(reply.locator('.markdown strong')).toHaveText('bold');
  expect(scripts.some((path) => /purify/i.test(path))).toBe(false);
  expect(scripts.some((path) => /\/Markdown-[^/]*\.js$/.test(path))).toBe(true);
});

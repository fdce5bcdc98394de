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

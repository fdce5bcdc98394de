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

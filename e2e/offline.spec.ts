import { expect, test } from '@playwright/test';
import { assistantMessages, newConversation, send, useScript, waitForServiceWorker } from './fixtures';

test('offline, a reload opens the app from the cache and the scripted model still answers', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, [{ text: 'Answered without a network.' }]);

  await context.setOffline(true);
  await page.reload();

  await expect(page.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  await newConversation(page);
  await send(page, 'Are you there?');
  const reply = assistantMessages(page).first();
  await expect(reply).toContainText('Answered without a network.');
  await expect(reply).toHaveAttribute('data-status', 'complete');
});

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

test('the "Ready to work offline" note does not move the page under the pointer', async ({ page }) => {
  await page.goto('/');
  const settings = page.getByRole('button', { name: 'Settings', exact: true });
  const newConversationButton = page.getByRole('button', { name: 'New conversation', exact: true }).first();
  await expect(newConversationButton).toBeVisible();
  const before = [await settings.boundingBox(), await newConversationButton.boundingBox()];
  // The note appears once the service worker has cached the app (a first visit), while the user may be clicking.
  await expect(page.getByRole('status').filter({ hasText: 'Ready to work offline' })).toBeVisible();
  expect([await settings.boundingBox(), await newConversationButton.boundingBox()]).toEqual(before);
});

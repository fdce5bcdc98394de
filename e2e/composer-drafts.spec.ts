import { expect, test } from '@playwright/test';
import { conversationLink, messageBox, newConversation, send, useScript } from './fixtures';

test('typing right after "New conversation" lands in the new conversation, and unsent text survives switching and reloads', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Hi.' }]);
  const first = await newConversation(page);
  await send(page, 'First conversation');

  // Click and type at once, as a fast user does: the view switched in the same task, so nothing is lost.
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await page.keyboard.type('Typed immediately');
  await expect(messageBox(page)).toHaveValue('Typed immediately');
  await expect(page).not.toHaveURL(new RegExp(`#/c/${first}$`));
  const second = decodeURIComponent(new URL(page.url()).hash.slice('#/c/'.length));

  // Away and back: the draft is still there; after a reload too (it is stored with the conversation).
  await conversationLink(page, first).click();
  await expect(messageBox(page)).toHaveValue('');
  await conversationLink(page, second).click();
  await expect(messageBox(page)).toHaveValue('Typed immediately');
  await page.reload();
  await expect(messageBox(page)).toHaveValue('Typed immediately');
});

test('an unused new conversation does not pile up', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Conversations', exact: true });
  for (let index = 0; index < 3; index += 1) {
    await newConversation(page);
  }
  await expect(nav.getByRole('link')).toHaveCount(1);
});

test('a new conversation left unused is not kept: not after opening another, nor after Settings and a reload', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Hi.' }]);
  const nav = page.getByRole('navigation', { name: 'Conversations', exact: true });
  const used = await newConversation(page);
  await send(page, 'Keep this one');
  await expect(page.getByText('Hi.', { exact: true })).toBeVisible();

  // New conversation, then back to the used one: the empty one goes, and stays gone after a reload.
  await newConversation(page);
  await expect(nav.getByRole('link')).toHaveCount(2);
  await conversationLink(page, used).click();
  await expect(nav.getByRole('link')).toHaveCount(1);
  await page.reload();
  await expect(messageBox(page)).toBeVisible();
  await expect(nav.getByRole('link')).toHaveCount(1);

  // New conversation, then Settings (Back would return to it), then a reload: not kept, and never among the largest.
  await newConversation(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const largest = page.getByRole('list', { name: 'Largest conversations' });
  await expect(largest.getByRole('listitem')).toHaveCount(1);
  await page.reload();
  await expect(largest.getByRole('listitem')).toHaveCount(1);
  await expect(largest).not.toContainText('New conversation');
  await expect(nav.getByRole('link')).toHaveCount(1);
  await expect(conversationLink(page, used)).toBeVisible();
});

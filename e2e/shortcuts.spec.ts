import { expect, test } from '@playwright/test';
import { assistantMessages, messageBox, newConversation, send, useScript } from './fixtures';
import { PHONE } from './phone-helpers';

// The keyboard shortcuts a ChatGPT user knows.

test('Ctrl+Shift+O starts a conversation, Shift+Esc focuses the composer, Esc stops a reply, ? lists them', async ({ page }) => {
  await page.goto('/');
  await useScript(page, { steps: [{ text: 'A long reply that takes its time to arrive, word by word, so that it can be stopped.' }], chunkDelayMs: 200, chunkSize: 3 });
  const first = await newConversation(page);
  await page.keyboard.press('Control+Shift+O');
  await expect(page).not.toHaveURL(new RegExp(`#/c/${first}$`));
  await expect(page).toHaveURL(/#\/c\/[0-9a-f-]+$/);
  await expect(messageBox(page)).toBeFocused();

  await send(page, 'Go');
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'streaming');
  await page.getByRole('button', { name: 'Settings', exact: true }).focus();
  await page.keyboard.press('Escape');
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'stopped');

  await page.keyboard.press('Shift+Escape');
  await expect(messageBox(page)).toBeFocused();
  // "?" typed into the composer is a character.
  await page.keyboard.type('?');
  await expect(messageBox(page)).toHaveValue('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  await messageBox(page).fill('');
  await page.getByRole('button', { name: 'Settings', exact: true }).focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Ctrl/⌘ + Shift + O');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use(PHONE);

  test('360 px, touch: the shortcuts are listed from "Conversation actions" and from Settings, with no key to press', async ({ page }) => {
    await page.goto('/');
    await newConversation(page);
    const actions = page.getByRole('button', { name: 'Conversation actions', exact: true });
    await actions.tap();
    const open = page.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
    await open.tap();
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Shift + Esc');
    await dialog.getByRole('button', { name: 'Close', exact: true }).tap();
    await expect(dialog).toHaveCount(0);
    // The menu closed as the dialog opened, and the focus is back on its button.
    await expect(actions).toHaveAttribute('aria-expanded', 'false');
    await expect(actions).toBeFocused();

    await page.getByRole('button', { name: 'Settings', exact: true }).tap();
    await page.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).tap();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close', exact: true }).tap();
    await expect(dialog).toHaveCount(0);
  });
});

test('1280 px: Settings lists the shortcuts; the conversation header keeps its tools and leaves them to "?" and Settings', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await newConversation(page);
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts', exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('Ctrl/⌘ + Shift + O');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts', exact: true })).toBeFocused();
});

import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { assistantMessages, conversationLink, newConversation, send, useScript, userMessages } from './fixtures';

const SCRIPT = [
  { text: 'Before I plan, one question.', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] },
  { text: 'Received: {{lastToolResult}}' },
];

test('a conversation exported from one browser and imported into another comes whole, its waiting question closed: only this browser asks', async ({ page, browser }) => {
  await page.goto('/');
  await useScript(page, SCRIPT);
  const conversationId = await newConversation(page);
  await send(page, 'Plan a trip');
  await expect(page.getByRole('button', { name: 'Submit answers' })).toBeVisible();

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export conversations' }).click();
  const file = await (await download).path();
  expect(file).toBeTruthy();
  const exported = JSON.parse(await readFile(file!, 'utf8'));
  expect(exported).toMatchObject({ format: 'parley-export', version: 1, conversations: [{ conversation: { id: conversationId } }] });

  // Another browser profile: its own, empty IndexedDB.
  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    await elsewhere.goto('/');
    await useScript(elsewhere, SCRIPT); // the script is a setting, not part of the export
    await elsewhere.getByRole('button', { name: 'Settings', exact: true }).click();
    await elsewhere.getByLabel('Import conversations').setInputFiles(file!);
    await expect(elsewhere.getByRole('status').filter({ hasText: 'Imported 1 conversation.' })).toBeVisible();

    await expect(elsewhere.getByText('“Plan a trip” held an open question that can no longer be answered: it was closed as dismissed.')).toBeVisible();

    await conversationLink(elsewhere, conversationId).click();
    await expect(userMessages(elsewhere)).toHaveText(['Plan a trip']);
    await expect(elsewhere.getByRole('region', { name: 'Parley’s questions' })).toContainText('Dismissed');
    await expect(elsewhere.getByRole('button', { name: 'Submit answers' })).toHaveCount(0);
    await expect(elsewhere.getByRole('region', { name: /^Waiting for you/ })).toHaveCount(0);
    // A reply in chat goes on: the model reads that its question was not answered here, and may ask it again.
    await send(elsewhere, 'Beach, please');
    await expect(assistantMessages(elsewhere).nth(1)).toContainText('Received: Not answered here: these questions came from an imported file');

    // Importing the same file again adds nothing.
    await elsewhere.getByRole('button', { name: 'Settings', exact: true }).click();
    await elsewhere.getByLabel('Import conversations').setInputFiles(file!);
    await expect(elsewhere.getByRole('status').filter({ hasText: 'Imported 0 conversations. 1 was already here and was left as it is.' })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('settings travel in the backup without secrets, and an import asks before adding them', async ({ page, browser }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'OpenAI-compatible' });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Work model');
  await page.getByRole('textbox', { name: 'Base URL', exact: true }).fill('http://127.0.0.1:9/v1');
  await page.getByLabel('API key', { exact: true }).fill('sk-BACKUP-SECRET-9z');
  await page.getByRole('combobox', { name: 'Model', exact: true }).or(page.getByRole('textbox', { name: 'Model', exact: true })).fill('some-model');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export conversations' }).click();
  const file = (await (await download).path())!;
  const text = await readFile(file, 'utf8');
  expect(text).toContain('Work model');
  expect(text).not.toContain('BACKUP-SECRET');

  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    await elsewhere.goto('/');
    await elsewhere.getByRole('button', { name: 'Settings', exact: true }).click();
    // This browser has a "Work model" of its own, elsewhere: the file's must not pass for it.
    await elsewhere.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'OpenAI-compatible' });
    await elsewhere.getByRole('textbox', { name: 'Name', exact: true }).fill('Work model');
    await elsewhere.getByRole('textbox', { name: 'Base URL', exact: true }).fill('http://127.0.0.1:8/v1');
    await elsewhere.getByRole('combobox', { name: 'Model', exact: true }).or(elsewhere.getByRole('textbox', { name: 'Model', exact: true })).fill('mine');
    await elsewhere.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(elsewhere.getByText('Saved.', { exact: true })).toBeVisible();
    await elsewhere.getByLabel('Import conversations').setInputFiles(file);
    const offer = elsewhere.getByRole('group', { name: 'Settings in this file' });
    await expect(offer).toContainText('1 model profile, without its API key');
    const listed = offer.getByRole('list', { name: 'Model profiles in this file' }).getByRole('listitem');
    await expect(listed).toHaveText(['Work model (2) — http://127.0.0.1:9/v1 (“Work model” in the file: a profile here has that name)']);
    // At 360 px the offer wraps inside the page.
    await elsewhere.setViewportSize({ width: 360, height: 740 });
    expect(await elsewhere.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await offer.getByRole('button', { name: 'Add them too', exact: true }).click();
    await expect(elsewhere.getByRole('status').filter({ hasText: 'Added: 1 model profile' })).toBeVisible();
    await elsewhere.setViewportSize({ width: 1280, height: 800 });
    await expect(elsewhere.locator('.profile-list')).toContainText('Work model (2)');
  } finally {
    await other.close();
  }
});

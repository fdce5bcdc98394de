import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { assistantMessages, conversationLink, newConversation, send, useScript, userMessages } from './fixtures';

const SCRIPT = [
  { text: 'Before I plan, one question.', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] },
  { text: 'Received: {{lastToolResult}}' },
];

test('a conversation exported from one browser and imported into another keeps its waiting question', async ({ page, browser }) => {
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

    await conversationLink(elsewhere, conversationId).click();
    await expect(userMessages(elsewhere)).toHaveText(['Plan a trip']);
    await elsewhere.getByRole('group', { name: 'Where to?' }).getByRole('radio', { name: 'Beach' }).check();
    await elsewhere.getByRole('button', { name: 'Submit answers' }).click();
    await expect(assistantMessages(elsewhere).nth(1)).toContainText('Received: User has answered your questions: "Where to?"="Beach"');

    // Importing the same file again adds nothing.
    await elsewhere.getByRole('button', { name: 'Settings', exact: true }).click();
    await elsewhere.getByLabel('Import conversations').setInputFiles(file!);
    await expect(elsewhere.getByRole('status').filter({ hasText: 'Imported 0 conversations. 1 was already here and was left as it is.' })).toBeVisible();
  } finally {
    await other.close();
  }
});

import { expect, test, type Page } from '@playwright/test';
import { conversationLink } from './fixtures';

const NOW = 1_700_000_000_000;

/** An export of `count` conversations of `messages` messages, each message `textLength` characters long. */
function exportFile(conversations: Array<{ id: string; title: string; messages: number; textLength: number }>) {
  return {
    format: 'parley-export',
    version: 1,
    exportedAt: NOW,
    conversations: conversations.map(({ id, title, messages, textLength }, index) => ({
      conversation: { id, title, createdAt: NOW, updatedAt: NOW + index, runState: 'idle', completedSteps: 0 },
      messages: Array.from({ length: messages }, (_, seq) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role: seq % 2 ? 'assistant' : 'user', blocks: [{ type: 'text', text: `${seq} ${'x'.repeat(textLength)}` }], status: 'complete', createdAt: NOW + seq, updatedAt: NOW + seq })),
    })),
  };
}

async function importFile(page: Page, data: unknown) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Import conversations').setInputFiles({ name: 'parley.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(data)) });
}

test('an import of thousands of conversations is read and written by the worker, not parsed in the page', async ({ page }) => {
  await page.goto('/');
  // Any parse of the file in the page would show here (the file is over a megabyte; nothing else the page parses is).
  await page.evaluate(() => {
    const parse = JSON.parse;
    (window as unknown as { bigParses: number }).bigParses = 0;
    JSON.parse = function (text: string, ...rest: unknown[]) {
      if (typeof text === 'string' && text.length > 1_000_000) (window as unknown as { bigParses: number }).bigParses += 1;
      return parse.call(JSON, text, ...(rest as [])) as unknown;
    } as typeof JSON.parse;
  });
  const many = Array.from({ length: 3_000 }, (_, index) => ({ id: `many-${index}`, title: `Imported ${index}`, messages: 2, textLength: 200 }));
  await importFile(page, exportFile(many));
  await expect(page.getByRole('status').filter({ hasText: 'Imported 3000 conversations.' })).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => (window as unknown as { bigParses: number }).bigParses)).toBe(0);
  // The list knows them all at once (the newest first), and one opens.
  await conversationLink(page, 'many-2999').click();
  await expect(page.getByRole('article', { name: 'Parley' })).toContainText('1 xxx');
});

test('Settings lists the largest conversations and deletes one after asking', async ({ page }) => {
  await page.goto('/');
  await importFile(page, exportFile([
    { id: 'big', title: 'Big talk', messages: 200, textLength: 5_000 },
    { id: 'small', title: 'Small talk', messages: 2, textLength: 20 },
  ]));
  await expect(page.getByRole('status').filter({ hasText: 'Imported 2 conversations.' })).toBeVisible();
  const largest = page.getByRole('list', { name: 'Largest conversations' });
  await expect(largest.getByRole('listitem')).toHaveCount(2);
  await expect(largest.getByRole('listitem').first()).toContainText(/Big talk about 1(\.\d)? MB, 200 messages/);
  await expect(page.getByText(/Conversations take about 1(\.\d)? MB \(2 conversations\)\./)).toBeVisible();

  await largest.getByRole('button', { name: /^Delete “Big talk” \(1(\.\d)? MB\)$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
  await expect(dialog).toContainText('“Big talk” and all its messages will be removed from this device.');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '“Big talk” was deleted.' })).toBeVisible();
  await expect(largest.getByRole('listitem')).toHaveCount(1);
  await expect(largest).toContainText('Small talk');
  await expect(conversationLink(page, 'big')).toHaveCount(0);
  await expect(conversationLink(page, 'small')).toHaveCount(1);
});

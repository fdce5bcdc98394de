import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('a big import is parsed in its own worker: the agent worker answers meanwhile and is never restarted', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await importFile(page, exportFile([{ id: 'here', title: 'Already here', messages: 2, textLength: 20 }]));
  await expect(page.getByRole('status').filter({ hasText: 'Imported 1 conversation.' })).toBeVisible();
  // About 60 MB: seconds of parsing and validation. Handed over as a file path, as a user's choice is.
  const big = Array.from({ length: 1_000 }, (_, index) => ({ id: `big-${index}`, title: `Big ${index}`, messages: 60, textLength: 1_000 }));
  const directory = await mkdtemp(join(tmpdir(), 'parley-import-'));
  const path = join(directory, 'parley-big.json');
  await writeFile(path, JSON.stringify(exportFile(big)));
  try {
    const parserStarted = page.waitForEvent('worker', { predicate: (worker) => worker.url().includes('import-parser'), timeout: 30_000 });
    await page.getByLabel('Import conversations').setInputFiles(path);
    const parser = await parserStarted;
    let parserClosed = false;
    parser.on('close', () => (parserClosed = true));
    // A command sent while the file is parsed is answered before the parse ends: the agent worker is not blocked.
    await conversationLink(page, 'here').click();
    await expect(page.getByRole('article', { name: 'Parley' })).toContainText('1 xxx');
    expect(parserClosed).toBe(false);
    await expect(conversationLink(page, 'big-0')).toHaveCount(0);
    // The import still finishes, and its worker is gone afterwards.
    await expect(conversationLink(page, 'big-999')).toHaveCount(1, { timeout: 150_000 });
    await expect.poll(() => parserClosed).toBe(true);
    await expect(page.getByText('background worker stopped and was restarted')).toHaveCount(0);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});

test('the import worker’s refusals reach the user, and nothing is imported', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const input = page.getByLabel('Import conversations');
  await input.setInputFiles({ name: 'parley.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
  await expect(page.getByRole('alert').filter({ hasText: 'That file is not JSON. Nothing was imported.' })).toBeVisible();
  // A form answer nested 100,000 levels deep: refused by name, not a failure to save half of the file.
  const file = exportFile([{ id: 'deep', title: 'Deep', messages: 2, textLength: 20 }]);
  (file.conversations[0]!.messages[1]!.blocks as unknown[]).push({ type: 'elicitation_request', requestId: 'e1', toolCallId: 't1', serverName: 's', message: 'Which?', requestedSchema: {}, status: 'success', resolution: 'accepted', content: { answer: 'MARKER' } });
  const levels = 100_000;
  const text = JSON.stringify(file).replace('"MARKER"', `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
  await input.setInputFiles({ name: 'parley.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByRole('alert')).toHaveText('The export file cannot be imported: in message 2 of conversation 1, the answer to a tool’s form is not plain JSON, is nested too deeply or is too large. Nothing was imported.');
  await expect(conversationLink(page, 'deep')).toHaveCount(0);
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

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { messageBox, messageLog, newConversation, send, useScript } from './fixtures';
import { PHONE } from './phone-helpers';

/**
 * An export file of four conversations; "Long trip" has 400 messages, and its 11th mentions a zeppelin; "Trip to Lisbon
 * in May" has 200, three of which name Lisbon, the 6th most of all.
 */
async function conversationsFile(): Promise<string> {
  const entry = (id: string, title: string, texts: string[]) => ({
    conversation: { id, title, createdAt: 0, updatedAt: texts.length, runState: 'idle', completedSteps: texts.length / 2 },
    messages: texts.map((text, seq) => ({ id: `${id}-m${seq}`, conversationId: id, seq, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text }], status: 'complete', createdAt: seq, updatedAt: seq })),
  });
  const trip = Array.from({ length: 400 }, (_, seq) => (seq === 10 ? 'Could we cross the Alps by zeppelin instead of the night train?' : `Stop ${seq}: a town on the way with a market square.`));
  const file = join(tmpdir(), `parley-search-${process.pid}.json`);
  const lisbon = Array.from({ length: 200 }, (_, seq) => LISBON[seq] ?? `Day ${seq}: a walk, then lunch.`);
  const conversations = [
    entry('trip', 'Long trip', trip),
    entry('garden', 'Balcony garden', ['Which tomatoes grow well in pots?', 'Cherry tomatoes do.']),
    entry('books', '读书笔记', ['我喜欢用简体中文写读书笔记', '好的。']),
    entry('lisbon', 'Trip to Lisbon in May', lisbon),
  ];
  await writeFile(file, JSON.stringify({ format: 'parley-export', version: 1, exportedAt: 1, conversations }));
  return file;
}

/** The messages of "Trip to Lisbon in May" that name Lisbon, by seq: the best match is the 6th. */
const LISBON: Record<number, string> = {
  5: 'Lisbon, Lisbon, Lisbon: the trams of Lisbon climb its hills.',
  100: 'We land in Lisbon at noon, after a long morning of meetings, delays, queues and a slow bus from the other terminal.',
  180: 'Home from Lisbon on the last evening flight, tired and happy after the long and lovely week away.',
};

async function importConversations(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Import conversations').setInputFiles(await conversationsFile());
  await expect(page.getByRole('status').filter({ hasText: 'Imported 4 conversations.' })).toBeVisible();
}

/** Searching "lisbon" gives the conversation once, with its best message and how many match; opening it shows that one. */
async function oneEntryPerConversation(page: Page, open: (link: Locator) => Promise<void>): Promise<void> {
  await searchBox(page).fill('lisbon');
  const result = results(page).getByRole('link');
  await expect(result).toHaveCount(1);
  await expect(result.locator('.conversation-search-title')).toHaveText('Trip to Lisbon in May');
  await expect(result.locator('.conversation-search-title mark')).toHaveText('Lisbon');
  await expect(result.locator('.conversation-search-snippet')).toContainText('the trams of Lisbon climb its hills');
  await expect(result).toContainText('3 matching messages');
  await open(result);
  await expect(page).toHaveURL(/#\/c\/lisbon$/);
  // The best match is 194 messages before the newest: the conversation opens there.
  await expect(messageLog(page).getByText('the trams of Lisbon climb its hills', { exact: false })).toBeInViewport();
}

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations', exact: true });
const results = (page: Page) => page.getByRole('list', { name: 'Matching conversations', exact: true });

test('a word from an old message of another conversation is found, and opening it scrolls to that message', async ({ page }) => {
  await importConversations(page);
  await page.getByRole('link', { name: 'Balcony garden' }).click();
  await expect(messageLog(page)).toContainText('Cherry tomatoes do.');

  await searchBox(page).fill('zeppelin');
  const result = results(page).getByRole('link');
  await expect(result).toHaveCount(1);
  await expect(result).toContainText('Long trip');
  await expect(result).toContainText('1 matching message');
  await expect(result.locator('mark')).toHaveText('zeppelin');
  await result.click();
  await expect(page).toHaveURL(/#\/c\/trip$/);
  // The message was never in the page: the conversation opens at its newest page, 390 messages later.
  await expect(messageLog(page).getByText('Could we cross the Alps by zeppelin', { exact: false })).toBeInViewport();

  // Chinese words inside a sentence without spaces; nothing found says so; Esc clears.
  await searchBox(page).fill('中文');
  await expect(results(page).getByRole('link')).toContainText(['读书笔记']);
  await searchBox(page).fill('submarine');
  await expect(page.getByRole('status').filter({ hasText: 'No conversations match' })).toBeVisible();
  await searchBox(page).press('Escape');
  await expect(searchBox(page)).toHaveValue('');
  await expect(page.getByRole('status').filter({ hasText: 'No conversations match' })).toHaveCount(0);
});

test('a conversation with several matching messages is one result, which opens at its best match', async ({ page }) => {
  await importConversations(page);
  await oneEntryPerConversation(page, (link) => link.click());
});

test('a message written after the first search is found too', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Noted.' }]);
  await searchBox(page).fill('anything');
  await expect(page.getByRole('status').filter({ hasText: 'No conversations match' })).toBeVisible();
  await newConversation(page);
  await send(page, 'Remind me about the marmalade recipe');
  await expect(messageLog(page)).toContainText('Noted.');
  await searchBox(page).fill('marmalade');
  // One result: its title (named after the first message) and that message both hold the word.
  await expect(results(page).getByRole('link').locator('mark')).toHaveText(['marmalade', 'marmalade']);
});

test.describe('on a phone', () => {
  test.use(PHONE);

  test('the search sits in the conversation list, and a result opens the conversation at the message', async ({ page }) => {
    await importConversations(page);
    await page.getByRole('button', { name: 'Conversations', exact: true }).tap();
    await searchBox(page).fill('zeppelin');
    await results(page).getByRole('link').first().tap();
    await expect(messageBox(page)).toBeVisible();
    await expect(messageLog(page).getByText('Could we cross the Alps by zeppelin', { exact: false })).toBeInViewport();
  });

  test('a conversation with several matching messages is one result, which opens at its best match', async ({ page }) => {
    await importConversations(page);
    await page.getByRole('button', { name: 'Conversations', exact: true }).tap();
    await oneEntryPerConversation(page, async (link) => {
      // Nothing of the result is cut off at the phone's width.
      const box = (await link.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      await link.tap();
    });
    await expect(messageBox(page)).toBeVisible();
  });
});

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { messageLog } from './fixtures';

/** An export file of one conversation with `count` messages, each saying its number. */
async function longConversationFile(count: number): Promise<string> {
  const conversationId = 'long-conversation';
  const messages = Array.from({ length: count }, (_, seq) => ({
    id: `m${seq}`,
    conversationId,
    seq,
    role: seq % 2 === 0 ? 'user' : 'assistant',
    blocks: [{ type: 'text', text: seq % 2 === 0 ? `Question ${seq}` : `Answer ${seq}\n\n- first point\n- second point\n\nA paragraph that makes this message a few lines tall on a narrow screen.` }],
    status: 'complete',
    createdAt: seq,
    updatedAt: seq,
  }));
  const file = join(tmpdir(), `parley-long-${count}-${process.pid}.json`);
  const conversation = { id: conversationId, title: 'A long conversation', createdAt: 0, updatedAt: count, runState: 'idle', completedSteps: count / 2 };
  await writeFile(file, JSON.stringify({ format: 'parley-export', version: 1, exportedAt: 1, conversations: [{ conversation, messages }] }));
  return file;
}

async function openImported(page: Page, count: number): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Import conversations').setInputFiles(await longConversationFile(count));
  await expect(page.getByRole('status').filter({ hasText: 'Imported 1 conversation.' })).toBeVisible();
  await page.getByRole('link', { name: 'A long conversation' }).click();
  await expect(messageLog(page).getByRole('article').last()).toContainText(`Answer ${count - 1}`);
}

test('a 2,000-message conversation keeps a small DOM, pages back while scrolling up, and jumps to the latest', async ({ page }) => {
  await openImported(page, 2000);
  const log = messageLog(page);
  expect(await log.getByRole('article').count()).toBeLessThanOrEqual(40);
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);

  // Scroll to the top of what is loaded: the previous page is read and the message in view stays in view.
  await log.evaluate((element) => (element.scrollTop = 0));
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await expect(log.getByRole('button', { name: 'Show earlier messages (1850)' })).toBeVisible();
  expect(await log.getByRole('article').count()).toBeLessThanOrEqual(40);

  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(log.getByRole('article').last()).toContainText('Answer 1999');
  await expect(log.getByRole('article').last()).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0);
});

test('Find in conversation reaches a message that was never loaded, and Esc closes it', async ({ page }) => {
  await openImported(page, 2000);
  await page.getByRole('button', { name: 'Find in conversation' }).click();
  const box = page.getByRole('searchbox', { name: 'Find in conversation' });
  await box.fill('Question 24');
  // Questions have even numbers: 24, 240, 242, 244, 246 and 248 match, the newest shown first.
  await expect(page.getByText('6 of 6', { exact: true })).toBeVisible();
  await expect(messageLog(page).getByText('Question 248', { exact: true })).toBeInViewport();
  await box.press('Enter');
  await expect(page.getByText('5 of 6', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Newer match' }).click();
  await page.getByRole('button', { name: 'Older match' }).click();
  for (let step = 0; step < 4; step += 1) await box.press('Enter');
  await expect(page.getByText('1 of 6', { exact: true })).toBeVisible();
  await expect(messageLog(page).getByText('Question 24', { exact: true })).toBeInViewport();
  expect(await messageLog(page).getByRole('article').count()).toBeLessThanOrEqual(40);
  await box.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(messageLog(page)).toBeFocused();
});

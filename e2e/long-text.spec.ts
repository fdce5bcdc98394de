import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { messageLog } from './fixtures';

/** The cut of src/ui/messages/LongText.tsx, restated: a test must not import the app. */
const RENDER_LIMIT = 100_000;
/** What the worker sends the page of one text (src/schema/limits.ts). */
const PAGE_TEXT_LIMIT = 1_000_000;

/** About `length` characters of numbered lines of words. */
function longText(label: string, length: number): string {
  const line = `${label} line ${'word '.repeat(14)}`;
  return Array.from({ length: Math.ceil(length / (line.length + 8)) }, (_, index) => `${line}${index}`).join('\n');
}

/** An export file of one conversation titled `title` holding `messages` (their blocks). */
async function conversationFile(title: string, messages: { role: 'user' | 'assistant'; blocks: unknown[] }[]): Promise<string> {
  const conversationId = title.toLowerCase().replace(/\W+/g, '-');
  const records = messages.map((message, seq) => ({ id: `${conversationId}-${seq}`, conversationId, seq, ...message, status: 'complete', createdAt: seq, updatedAt: seq }));
  const conversation = { id: conversationId, title, createdAt: 0, updatedAt: messages.length, runState: 'idle', completedSteps: 1 };
  const file = join(tmpdir(), `parley-${conversationId}-${process.pid}.json`);
  await writeFile(file, JSON.stringify({ format: 'parley-export', version: 1, exportedAt: 1, conversations: [{ conversation, messages: records }] }));
  return file;
}

/** Records the page's long tasks from now on (read with `longTasks`): figures for a report, never asserted. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const durations: number[] = [];
    (window as unknown as { longTasks: number[] }).longTasks = durations;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) durations.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
}

async function reportLongTasks(page: Page, label: string): Promise<void> {
  const durations = await page.evaluate(() => (window as unknown as { longTasks?: number[] }).longTasks ?? []);
  test.info().annotations.push({ type: `long tasks (ms), ${label}`, description: durations.sort((a, b) => b - a).slice(0, 5).join(', ') || 'none' });
}

async function importAndOpen(page: Page, file: string, title: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Import conversations').setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Imported 1 conversation.' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: title }).click();
}

/** Characters of text the page holds in `locator`, and how many elements the whole page has. */
async function pageSize(locator: Locator): Promise<{ text: number; elements: number }> {
  return locator.evaluate((element) => ({ text: element.textContent?.length ?? 0, elements: document.getElementsByTagName('*').length }));
}

test('a 2 MB message, its reasoning and a tool\'s result are cut with "Show all", which adds the rest in slices', async ({ page }) => {
  const size = 2_000_000;
  const file = await conversationFile('Long texts', [
    { role: 'user', blocks: [{ type: 'text', text: longText('question', size) }] },
    {
      role: 'assistant',
      blocks: [
        { type: 'reasoning', text: longText('thought', size) },
        { type: 'tool_call', toolCallId: 'call-1', toolName: 'clock', args: { text: 'x'.repeat(200_000) }, status: 'success', result: longText('result', size) },
        { type: 'text', text: longText('answer', size) },
      ],
    },
  ]);
  await watchLongTasks(page);
  await importAndOpen(page, file, 'Long texts');
  const you = messageLog(page).getByRole('article', { name: 'You' });
  const reply = messageLog(page).getByRole('article', { name: 'Parley' });
  await expect(reply).toContainText('answer line');
  // Reasoning, the tool's arguments and result, and the reply: each cut on its own.
  await reply.getByText('Reasoning', { exact: true }).click();
  await reply.getByText('Arguments', { exact: true }).click();
  await reply.getByText('Result', { exact: true }).click();
  await expect(reply.getByRole('button', { name: 'Show all' })).toHaveCount(4);

  // Each text shows at most the limit: the page holds a few hundred thousand characters, not 8 MB.
  const opened = await pageSize(messageLog(page));
  expect(opened.text).toBeLessThan(6 * RENDER_LIMIT);
  expect(opened.elements).toBeLessThan(3_000);
  await reportLongTasks(page, 'opened');

  // The log is windowed: the question above comes into the page as the log scrolls up to it.
  await messageLog(page).evaluate((element) => (element.scrollTop = 0));
  await expect(you.getByRole('button', { name: 'Show all' })).toBeVisible();
  expect((await pageSize(messageLog(page))).text).toBeLessThan(6 * RENDER_LIMIT);

  // "Show all" adds the rest a slice at a time, up to what the page holds (the worker sends the first million
  // characters of a text), and then says the rest is for Copy and the exports.
  await you.getByRole('button', { name: 'Show all' }).click();
  await expect(you.getByRole('button', { name: 'Show all' })).toHaveCount(0);
  const question = longText('question', size);
  const rest = (question.length - PAGE_TEXT_LIMIT).toLocaleString('en-US');
  await expect(you.getByText(`The rest (${rest} characters) is too long to show here: Copy takes all of it, and so do the exports.`, { exact: true })).toBeVisible({ timeout: 60_000 });
  const held = question.slice(0, PAGE_TEXT_LIMIT);
  await expect(you.locator('.text-slice').last()).toHaveText(new RegExp(`${held.split('\n').at(-1)}$`));
  expect(await you.locator('.text-slice').count()).toBeGreaterThanOrEqual(PAGE_TEXT_LIMIT / 20_000);
  await reportLongTasks(page, 'after Show all');

  // After a reload the reply shows plain while the Markdown code loads: cut as well.
  await page.reload();
  await expect(reply).toContainText('answer line');
  await expect(reply.getByRole('button', { name: 'Show all' })).toHaveCount(1);
  expect((await pageSize(messageLog(page))).text).toBeLessThan(6 * RENDER_LIMIT);
  await reportLongTasks(page, 'reloaded');
});

test('a 100 MB reply opens cut, and opens again after a reload', async ({ page, context }) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const text = longText('huge', 100_000_000);
  const file = await conversationFile('A huge reply', [
    { role: 'user', blocks: [{ type: 'text', text: 'Write a lot.' }] },
    { role: 'assistant', blocks: [{ type: 'text', text }] },
  ]);
  await watchLongTasks(page);
  await importAndOpen(page, file, 'A huge reply');
  const reply = messageLog(page).getByRole('article', { name: 'Parley' });
  await expect(reply.getByRole('button', { name: 'Show all' })).toBeVisible({ timeout: 60_000 });
  await expect(reply).toContainText('huge line');
  expect((await pageSize(messageLog(page))).text).toBeLessThan(2 * RENDER_LIMIT);
  await reportLongTasks(page, 'opened');

  // Copy still takes the whole text, not what is shown (the stored text stays whole; Export reads it from the store).
  await reply.hover();
  await reply.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(reply.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1, { timeout: 60_000 });
  expect(await page.evaluate(async () => (await navigator.clipboard.readText()).length)).toBe(text.length);

  await page.reload();
  await expect(reply.getByRole('button', { name: 'Show all' })).toBeVisible({ timeout: 60_000 });
  expect((await pageSize(messageLog(page))).text).toBeLessThan(2 * RENDER_LIMIT);
  await reportLongTasks(page, 'reloaded');

  // The page holds only the first million characters (the worker clips what it sends): "Show all" shows those,
  // in slices, and says the rest is for Copy and the exports.
  await reply.getByRole('button', { name: 'Show all' }).click();
  const rest = (text.length - PAGE_TEXT_LIMIT).toLocaleString('en-US');
  await expect(reply.getByText(`The rest (${rest} characters) is too long to show here: Copy takes all of it, and so do the exports.`, { exact: true })).toBeVisible({ timeout: 120_000 });
  const shown = (await pageSize(messageLog(page))).text;
  expect(shown).toBeGreaterThan(PAGE_TEXT_LIMIT - RENDER_LIMIT);
  expect(shown).toBeLessThan(PAGE_TEXT_LIMIT + RENDER_LIMIT);
  await reportLongTasks(page, 'shown all');
});

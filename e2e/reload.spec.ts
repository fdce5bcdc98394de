import { expect, test } from '@playwright/test';
import { assistantMessages, isCountingPrefix, newConversation, numberedWords, send, useScript, wordNumbers } from './fixtures';

test('a reload mid-reply keeps the saved part as Interrupted, and Continue completes it', async ({ page }) => {
  const wordCount = 100;
  const allWords = Array.from({ length: wordCount }, (_, index) => index + 1);
  await page.goto('/');
  // About 3 s of streaming: the reload lands well inside it.
  await useScript(page, { steps: [{ text: numberedWords(wordCount) }], chunkSize: 5, chunkDelayMs: 30 });
  const conversationId = await newConversation(page);
  await send(page, 'Tell me a long story');

  const reply = assistantMessages(page).first();
  // Far enough in (about 1 s) that the coalesced writes, a few per second, have stored some of it.
  await expect.poll(async () => wordNumbers(await reply.textContent()).length, { intervals: [50] }).toBeGreaterThan(25);
  await page.reload();

  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  const interrupted = assistantMessages(page).first();
  await expect(interrupted).toHaveAttribute('data-status', 'interrupted');
  await expect(interrupted).toContainText('Interrupted');
  const kept = wordNumbers(await interrupted.textContent());
  expect(kept.length, 'the stored prefix is not empty').toBeGreaterThan(0);
  expect(kept.length, 'the reply was cut by the reload').toBeLessThan(wordCount);
  expect(isCountingPrefix(kept), `kept words should be a prefix, got ${kept.join(',')}`).toBe(true);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(assistantMessages(page).first()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  // The continuation carries on from the stored text: every word once, in order, in the same message.
  expect(wordNumbers(await assistantMessages(page).first().textContent())).toEqual(allWords);
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toHaveCount(0);
});

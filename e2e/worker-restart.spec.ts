import { expect, test } from '@playwright/test';
import { assistantMessages, isCountingPrefix, newConversation, numberedWords, send, useScript, wordNumbers } from './fixtures';

test('a worker that dies mid-reply is replaced: the reply is marked interrupted, Stop answers, Continue works', async ({ page }) => {
  await page.goto('/');
  await useScript(page, { steps: [{ text: numberedWords(150) }], chunkSize: 4, chunkDelayMs: 30 });
  await newConversation(page);
  await send(page, 'Write a long reply');
  const reply = assistantMessages(page).first();
  await expect(reply).toContainText('w010');
  await expect(reply).toHaveAttribute('data-status', 'streaming');

  // A dead worker, as after a crash: no error event, no answer to anything ever again.
  const [worker] = page.workers().filter((candidate) => candidate.url().includes('main'));
  expect(worker).toBeDefined();
  await worker!.evaluate(() => (self as unknown as { close(): void }).close()).catch(() => undefined);

  // Stop goes to the dead worker: it is answered (with the reason) once the new worker is up, instead of never.
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'restarted before it could answer' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: 'background worker stopped and was restarted' })).toBeVisible({ timeout: 20_000 });
  // The new worker found the run's lock released with the old one, and marked the reply interrupted.
  await expect(reply).toHaveAttribute('data-status', 'interrupted');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  // The rest of the reply streams in ~40 chunks; beside the in-browser model's tests a chunk took up to ~270 ms in CI.
  await expect(reply).toContainText('w150', { timeout: 60_000 });
  await expect(reply).toHaveAttribute('data-status', 'complete');
  const numbers = wordNumbers(await reply.textContent());
  expect(numbers).toHaveLength(150); // nothing lost or written twice across the restart
  expect(isCountingPrefix(numbers)).toBe(true);
});

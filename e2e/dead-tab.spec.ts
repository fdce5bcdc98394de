import { expect, test } from '@playwright/test';
import { assistantMessages, conversationLink, newConversation, numberedWords, send, useScript } from './fixtures';

test('a tab watching a reply notices at once when the tab writing it closes, and can continue it', async ({ context }) => {
  // The reply streams for about 5 s, so the watcher finds it still being written on a busy machine too (at 0.9 s it
  // could be complete before the watcher had opened the conversation).
  test.setTimeout(120_000);
  const writer = await context.newPage();
  const watcher = await context.newPage();
  await writer.goto('/');
  await watcher.goto('/');
  await useScript(writer, { steps: [{ text: numberedWords(400) }], chunkSize: 4, chunkDelayMs: 50 });
  const conversationId = await newConversation(writer);
  await send(writer, 'Write slowly');
  await expect(assistantMessages(writer).first()).toContainText('w005');

  await conversationLink(watcher, conversationId).click();
  const reply = assistantMessages(watcher).first();
  await expect(reply).toHaveAttribute('data-status', 'streaming');
  await expect(watcher.getByText('Writing…', { exact: true })).toBeVisible();

  await writer.close();
  // No reload, no waiting for a timeout: the run lock was released with the tab.
  await expect(reply).toHaveAttribute('data-status', 'interrupted');
  await watcher.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(reply).toContainText('w400', { timeout: 60_000 });
  await expect(reply).toHaveAttribute('data-status', 'complete');
});

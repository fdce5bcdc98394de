import { expect, test } from '@playwright/test';
import { assistantMessages, conversationLink, messageLog, newConversation, send, userMessages, useScript } from './fixtures';

test('two tabs see each other’s conversations and messages without reloading', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto('/');
  await second.goto('/');
  await expect(second.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();

  await useScript(first, [{ text: 'Reply seen by every tab.' }]);
  const conversationId = await newConversation(first);

  // The second tab learns about the conversation from the first tab's worker, with no reload.
  const link = conversationLink(second, conversationId);
  await expect(link).toBeVisible();
  await link.click();
  await expect(second).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  await expect(messageLog(second)).toBeVisible();
  await expect(userMessages(second)).toHaveCount(0);

  await send(first, 'Hello from the first tab');
  await expect(assistantMessages(first).first()).toContainText('Reply seen by every tab.');

  await expect(userMessages(second).first()).toContainText('Hello from the first tab');
  await expect(assistantMessages(second).first()).toContainText('Reply seen by every tab.');
  await expect(assistantMessages(second).first()).toHaveAttribute('data-status', 'complete');
  await expect(userMessages(second)).toHaveCount(1);
  await expect(assistantMessages(second)).toHaveCount(1);
});

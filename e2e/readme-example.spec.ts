import { expect, test } from '@playwright/test';

// The README's Playwright example, verbatim: it is part of the contract for test engineers.
test('the README example runs as written', async ({ page }) => {
  const steps = [
    {
      text: 'You said {{lastUserMessage}}. A few questions first:',
      toolCalls: [{ name: 'question', args: { questions: [{ header: 'Budget', question: 'What budget?', options: [{ label: 'Low' }, { label: 'High' }] }] } }],
    },
    { text: 'Thanks. I received: {{lastToolResult}}' },
  ];
  await page.goto('/');
  // --- verbatim from README.md ---
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Provider').selectOption({ label: 'Scripted' });
  await page.getByLabel('Script').fill(JSON.stringify(steps));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Plan my weekend');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('group', { name: 'What budget?' }).getByLabel('Low').check();
  await page.getByRole('button', { name: 'Submit answers' }).click();
  // --- end of the README's example ---
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Thanks. I received: User has answered your questions: "What budget?"="Low". You can now continue');
});

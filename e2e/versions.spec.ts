import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { assistantMessages, newConversation, send, useScript, userMessages } from './fixtures';

// Versions and branches: Regenerate keeps the earlier replies as versions, Edit makes a new branch from a
// message and keeps the old one reachable; the version on screen survives a reload and is what the model reads next.

test('regenerate twice, step through the three versions, reload: the version on screen is what the next step reads', async ({ page }) => {
  await page.goto('/');
  // The fourth step echoes the reply its history holds before the new message: the version the model was given.
  await useScript(page, [{ text: 'Reply one.' }, { text: 'Reply two.' }, { text: 'Reply three.' }, { text: 'You said {{lastUserMessage}} after: {{lastAssistantMessage}}' }]);
  await newConversation(page);
  await send(page, 'Hello');
  const reply = assistantMessages(page).last();
  await expect(reply).toContainText('Reply one.');
  await expect(reply).toHaveAttribute('data-status', 'complete');
  await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(reply).toContainText('Reply two.');
  await expect(reply).toHaveAttribute('data-status', 'complete');
  await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(reply).toContainText('Reply three.');
  await expect(reply.getByRole('status')).toHaveText('3 of 3');
  await expect(assistantMessages(page)).toHaveCount(1);

  await reply.getByRole('button', { name: 'Previous version', exact: true }).click();
  await expect(reply).toContainText('Reply two.');
  await expect(reply.getByRole('status')).toHaveText('2 of 3');
  await reply.getByRole('button', { name: 'Previous version', exact: true }).click();
  await expect(reply).toContainText('Reply one.');
  await expect(reply.getByRole('button', { name: 'Previous version', exact: true })).toBeDisabled();
  await reply.getByRole('button', { name: 'Next version', exact: true }).click();
  await reply.getByRole('button', { name: 'Previous version', exact: true }).click();
  await expect(reply.getByRole('status')).toHaveText('1 of 3');
  // Version 2 of 3: neither the first nor the newest written.
  await reply.getByRole('button', { name: 'Next version', exact: true }).click();
  await expect(reply.getByRole('status')).toHaveText('2 of 3');

  // The switch's code loads with the data of a conversation that has versions: after a reload the reply never shows
  // without its switch (which would come in a moment later, moving the row).
  await page.addInitScript(() => {
    (window as unknown as { repliesWithoutSwitch: number }).repliesWithoutSwitch = 0;
    new MutationObserver(() => {
      for (const reply of document.querySelectorAll('article[aria-label="Parley"]')) {
        if (!reply.querySelector('[role="group"][aria-label="Versions"]')) (window as unknown as { repliesWithoutSwitch: number }).repliesWithoutSwitch += 1;
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  const first = assistantMessages(page).first();
  await expect(first).toContainText('Reply two.');
  await expect(first.getByRole('status')).toHaveText('2 of 3');
  expect(await page.evaluate(() => (window as unknown as { repliesWithoutSwitch: number }).repliesWithoutSwitch)).toBe(0);
  await send(page, 'Go on');
  await expect(assistantMessages(page)).toHaveText([/Reply two\./, /You said Go on after: Reply two\./]);

  // Deleting a version asks first; the others stay, with the branch that follows them.
  await first.getByRole('button', { name: 'Next version', exact: true }).click();
  await expect(first).toContainText('Reply three.');
  await expect(assistantMessages(page)).toHaveCount(1);
  await first.getByRole('button', { name: 'Delete this version', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this version?' });
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(first.getByRole('status')).toHaveText('2 of 2');
  await expect(assistantMessages(page)).toHaveText([/Reply two\./, /You said Go on after: Reply two\./]);
  await first.getByRole('button', { name: 'Previous version', exact: true }).click();
  await expect(assistantMessages(page)).toHaveText([/Reply one\./]);
});

test('edit the first message of a three-turn conversation: the model gets the edited text, and the old branch is reachable', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }, { text: 'Got: {{lastUserMessage}}' }]);
  await newConversation(page);
  for (const [index, text] of ['first', 'second', 'third'].entries()) {
    await send(page, text);
    await expect(assistantMessages(page).nth(index)).toHaveAttribute('data-status', 'complete');
  }
  const first = userMessages(page).first();
  await first.getByRole('button', { name: 'Edit', exact: true }).click();
  const box = first.getByRole('textbox', { name: 'Edit message', exact: true });
  await expect(box).toHaveValue('first');
  await box.fill('first, edited');
  await first.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(assistantMessages(page)).toHaveText([/^Got: first, edited/]);
  await expect(userMessages(page)).toHaveText([/first, edited/]);
  await expect(userMessages(page).first().getByRole('status')).toHaveText('2 of 2');

  await userMessages(page).first().getByRole('button', { name: 'Previous version', exact: true }).click();
  await expect(userMessages(page)).toHaveText([/^first/, /^second/, /^third/]);
  await expect(assistantMessages(page)).toHaveText([/One\./, /Two\./, /Three\./]);
  await page.reload();
  await expect(assistantMessages(page)).toHaveText([/One\./, /Two\./, /Three\./]);
  await userMessages(page).first().getByRole('button', { name: 'Next version', exact: true }).click();
  await expect(assistantMessages(page)).toHaveText([/^Got: first, edited/]);
});

test('editing while a question waits later in the branch asks first; Cancel keeps the question', async ({ page }) => {
  await page.goto('/');
  const question = { text: 'A question first.', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Pick', question: 'Which one?', options: ['A', 'B'] }] } }] };
  await useScript(page, [question, { text: 'Fresh start.' }]);
  await newConversation(page);
  await send(page, 'ask me');
  await expect(page.getByRole('button', { name: 'Submit answers' })).toBeVisible();
  const first = userMessages(page).first();
  await first.getByRole('button', { name: 'Edit', exact: true }).click();
  await first.getByRole('textbox', { name: 'Edit message', exact: true }).fill('never mind');
  await first.getByRole('button', { name: 'Send', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave the waiting request?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Submit answers' })).toBeVisible();
  await first.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Leave the waiting request?' }).getByRole('button', { name: 'Leave it', exact: true }).click();
  await expect(assistantMessages(page)).toHaveText([/^Fresh start\./]);
  await expect(page.getByRole('button', { name: 'Submit answers' })).toHaveCount(0);
});

test('Export as Markdown writes the conversation as it is on screen: the version shown, not the others', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'First **answer**.' }, { text: 'Second answer.' }]);
  await newConversation(page);
  await send(page, 'Tell me');
  const reply = assistantMessages(page).last();
  await expect(reply).toHaveAttribute('data-status', 'complete');
  await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(reply).toContainText('Second answer.');
  await reply.getByRole('button', { name: 'Previous version', exact: true }).click();
  await expect(reply).toContainText('First answer.');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as Markdown', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Tell me.md');
  const text = await readFile((await file.path())!, 'utf8');
  expect(text).toBe('# Tell me\n\n## You\n\nTell me\n\n## Parley\n\nFirst **answer**.\n');
});

test.describe('before the Markdown code arrives', () => {
  // Routes see every fetch only without the service worker's cache in between.
  test.use({ serviceWorkers: 'block' });

  test('a reply shown before its Markdown code arrives has one status, its version count: Copy’s silent one stays hidden', async ({ page }) => {
    await page.goto('/');
    await useScript(page, [{ text: 'Reply one.' }, { text: 'Reply two.' }]);
    await newConversation(page);
    await send(page, 'Hello');
    const reply = assistantMessages(page).last();
    await expect(reply).toHaveAttribute('data-status', 'complete');
    await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await expect(reply).toContainText('Reply two.');
    await expect(reply).toHaveAttribute('data-status', 'complete');

    // Hold the Markdown chunk back on the reload, so the message is on screen while its code is still on its way.
    let held!: () => void;
    const asked = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/Markdown-[^/]*\.(js|css)$/, async (route) => {
      held();
      await released;
      await route.continue();
    });
    await page.reload();
    await asked;
    await expect(reply.getByRole('status')).toHaveText('2 of 2');
    release();
    await expect(reply.locator('.markdown')).toContainText('Reply two.');
    await expect(reply.getByRole('status')).toHaveText('2 of 2');
  });
});

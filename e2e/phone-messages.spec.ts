import { expect, test, type Locator, type Page } from '@playwright/test';
import { assistantMessages, messageBox, messageLog, newConversation, send, useScript, userMessages } from './fixtures';
import { LONG_QUESTIONS, PHONE } from './phone-helpers';
import { completeReply, questionForm, questionScript } from './question-helpers';

// Messages at the widths where a new user found them hard to use: your own long message's actions on a phone, a table
// on a phone, your own message's action row on a laptop, and "Jump to latest" while a question is the latest thing.

const LONG_MESSAGE =
  'This is a long message of my own that runs over several lines on a phone, so its bubble would take the whole width of the conversation.';

/** Cells of one word each, and one word longer than a phone's column: a table that must scroll, not break words. */
const TABLE = [
  '| Name | Size | Letters |',
  '|---|---|---|',
  '| Medium | Medium | alpha beta gamma delta |',
  '| Extraordinarily | Large | alphabetagammadeltaepsilonzeta |',
].join('\n');

/** Waits two frames: the scroll events of what the page did last have been handled. */
function nextFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** How many lines the text of `element` takes (distinct tops of its line boxes). */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
}

/** Whether `box` lies wholly inside the window's width. */
function insideWidth(box: { x: number; width: number } | null, width: number): boolean {
  return !!box && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/** The question form's top has been brought to the log's top (the form holds itself there as it arrives). */
async function expectFormAtTop(page: Page): Promise<void> {
  await expect
    .poll(async () => {
      const [form, log] = [await questionForm(page).boundingBox(), await messageLog(page).boundingBox()];
      return form && log ? Math.abs(form.y - log.y) < 24 : false;
    })
    .toBe(true);
  await nextFrames(page);
}

/** A reply that fills the log, then a question form taller than the screen: the form is the latest thing. */
async function askAfterLongReply(page: Page): Promise<void> {
  await page.goto('/');
  const filler = Array.from({ length: 20 }, (_, index) => `Paragraph ${index + 1}: a line of the conversation.`).join('\n\n');
  const steps = (questionScript(LONG_QUESTIONS) as { steps: object[] }).steps;
  await useScript(page, { steps: [{ text: filler }, ...steps], chunkSize: 400, chunkDelayMs: 5 });
  await newConversation(page);
  await send(page, 'Tell me a lot');
  await completeReply(page, 0);
  await send(page, 'Now ask me');
  await expect(questionForm(page)).toBeVisible();
}

test.describe('at 360 px with touch', () => {
  test.use({ ...PHONE });

  test('a long message of your own keeps "Message actions" on screen, and a tap on the bubble opens its actions', async ({ page }) => {
    await page.goto('/');
    await useScript(page, [{ text: 'Noted.' }]);
    await newConversation(page);
    await send(page, LONG_MESSAGE);
    await completeReply(page, 0);
    const mine = userMessages(page).first();
    const toggle = mine.getByRole('button', { name: 'Message actions', exact: true });
    await expect(toggle).toBeVisible();
    await expect.poll(async () => insideWidth(await toggle.boundingBox(), 360), 'the button lies inside the screen').toBe(true);
    await expect.poll(async () => insideWidth(await mine.boundingBox(), 360), 'the bubble lies inside the screen').toBe(true);

    // A tap on the text opens the row (as the button does), and another closes it.
    const edit = mine.getByRole('button', { name: 'Edit', exact: true });
    await expect(edit).toBeHidden();
    await mine.locator('.message-text').tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(edit).toBeVisible();
    await expect(mine.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
    await expect.poll(async () => insideWidth(await edit.boundingBox(), 360)).toBe(true);
    await mine.locator('.message-text').tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(edit).toBeHidden();
    // The button still works as before.
    await toggle.tap();
    await expect(edit).toBeVisible();
    await edit.tap();
    await expect(page.getByRole('textbox', { name: 'Edit message', exact: true })).toBeVisible();
  });

  test('a table scrolls sideways instead of breaking its words', async ({ page }) => {
    await page.goto('/');
    await useScript(page, [{ text: TABLE }]);
    await newConversation(page);
    await send(page, 'A table, please');
    const reply = await completeReply(page, 0);
    const table = reply.locator('table');
    await expect(table).toBeVisible();
    for (const word of ['Medium', 'Extraordinarily', 'alphabetagammadeltaepsilonzeta']) {
      const cell = table.getByRole('cell', { name: word, exact: true }).first();
      await expect.poll(() => lineCount(cell), `“${word}” stays on one line`).toBe(1);
    }
    // The table scrolls within the reply; the page does not.
    await expect.poll(() => table.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(360);
    const replyBox = await reply.boundingBox();
    expect(replyBox!.x + replyBox!.width).toBeLessThanOrEqual(360);
  });

  test('"Jump to latest" does not show while the question that just arrived is the latest thing', async ({ page }) => {
    await askAfterLongReply(page);
    await expectFormAtTop(page);
    await expect(page.getByRole('button', { name: 'Jump to latest', exact: true })).toHaveCount(0);
    // Scrolled up past the form, the latest is out of view: the button is offered.
    await messageLog(page).evaluate((log) => (log.scrollTop = 0));
    await expect(page.getByRole('button', { name: 'Jump to latest', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Jump to latest', exact: true }).tap();
    await expect(page.getByRole('button', { name: 'Jump to latest', exact: true })).toHaveCount(0);
  });
});

test.describe('at 1280 px with a pointer', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('your own message’s action row stays on one line and clear of the reply below', async ({ page }) => {
    await page.goto('/');
    await useScript(page, [{ text: 'Hello! A reply below your message.' }]);
    await newConversation(page);
    await send(page, 'Hi');
    await completeReply(page, 0);
    const mine = userMessages(page).first();
    await mine.hover();
    const copy = mine.getByRole('button', { name: 'Copy', exact: true });
    const edit = mine.getByRole('button', { name: 'Edit', exact: true });
    await expect(copy).toBeVisible();
    await expect(edit).toBeVisible();
    const [copyBox, editBox, replyBox] = [await copy.boundingBox(), await edit.boundingBox(), await assistantMessages(page).first().boundingBox()];
    expect(Math.abs(copyBox!.y - editBox!.y), 'Copy and Edit on one row').toBeLessThan(1);
    expect(Math.max(copyBox!.y + copyBox!.height, editBox!.y + editBox!.height), 'the row ends above the reply').toBeLessThanOrEqual(replyBox!.y);
  });

  test('after a reload, "Jump to latest" does not cover the question that is the latest thing', async ({ page }) => {
    await askAfterLongReply(page);
    await page.reload();
    await expect(questionForm(page)).toBeVisible();
    await expect(messageBox(page)).toBeVisible();
    await expectFormAtTop(page);
    await expect(page.getByRole('button', { name: 'Jump to latest', exact: true })).toHaveCount(0);
  });
});

import { expect, test, type Page } from '@playwright/test';
import { assistantMessages, messageLog, newConversation, send, useScript } from './fixtures';
import { PHONE } from './phone-helpers';

// Find in conversation counts matches, not messages, highlights them with the CSS Custom Highlight API, and is
// reachable on a phone. The conversation is made through the scripted model, as a user would.

// Each test makes a conversation through Settings and two replies, then walks seven steps: more than the default minute
// on a busy two-core machine. A budget for the whole test, not a timed assertion.
test.describe.configure({ timeout: 180_000 });

const FIRST_REPLY = 'Three is a number: three, and in bold **three**.';
const SECOND_REPLY = 'Once more: three. And a word that does not match.';
/** "three" in: the first question (1), the first reply (3), the second reply (1). */
const OCCURRENCES = 5;

async function conversationWithMatches(page: Page): Promise<void> {
  await page.goto('/');
  await useScript(page, [{ text: FIRST_REPLY }, { text: SECOND_REPLY }]);
  await newConversation(page);
  await send(page, 'Count to three');
  await expect(assistantMessages(page).nth(0)).toHaveAttribute('data-status', 'complete');
  await send(page, 'Again, please');
  await expect(assistantMessages(page).nth(1)).toHaveAttribute('data-status', 'complete');
  // The replies are Markdown: wait until the bold word is rendered, so every match is in the page's text.
  await expect(assistantMessages(page).nth(0).locator('strong')).toHaveText('three');
}

/** How many ranges each Find highlight holds (undefined: no such highlight). */
function highlightSizes(page: Page): Promise<{ matches?: number; current?: number }> {
  return page.evaluate(() => ({ matches: CSS.highlights.get('find-matches')?.size, current: CSS.highlights.get('find-current')?.size }));
}

/** The current match, as its message's first words and which match of that message it is (from 0). */
function currentMatch(page: Page): Promise<{ text: string; message: string; index: number } | undefined> {
  return page.evaluate(() => {
    const current = [...(CSS.highlights.get('find-current') ?? [])][0] as Range | undefined;
    const article = current?.startContainer.parentElement?.closest('article');
    if (!current || !article) return undefined;
    const before = [...(CSS.highlights.get('find-matches') ?? [])].filter(
      (range) => article.contains(range.startContainer) && (range as Range).compareBoundaryPoints(Range.START_TO_START, current) < 0,
    );
    return { text: current.toString(), message: (article.textContent ?? '').slice(0, 12), index: before.length };
  });
}

/** Steps through all the matches with Enter, Shift+Enter and the buttons; checks the status and the highlights. */
async function walkTheMatches(page: Page): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Find in conversation' });
  const status = page.getByRole('search', { name: 'Find in conversation' }).getByRole('status');
  await box.fill('THREE');
  // The newest match first: the one in the last reply.
  await expect(status).toHaveText(`${OCCURRENCES} of ${OCCURRENCES}`);
  await expect.poll(() => highlightSizes(page)).toEqual({ matches: OCCURRENCES, current: 1 });
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'three', message: 'Once more: t', index: 0 });

  // Older goes back through the first reply's three matches, last to first, then to the question.
  await box.press('Enter');
  await expect(status).toHaveText(`4 of ${OCCURRENCES}`);
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'three', message: 'Three is a n', index: 2 });
  await page.getByRole('button', { name: 'Older match' }).click();
  await expect(status).toHaveText(`3 of ${OCCURRENCES}`);
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'three', message: 'Three is a n', index: 1 });
  await box.press('Enter');
  await expect(status).toHaveText(`2 of ${OCCURRENCES}`);
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'Three', message: 'Three is a n', index: 0 });
  await box.press('Enter');
  await expect(status).toHaveText(`1 of ${OCCURRENCES}`);
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'three', message: 'Count to thr', index: 0 });

  // Newer comes back the same way; Shift+Enter too.
  await page.getByRole('button', { name: 'Newer match' }).click();
  await expect(status).toHaveText(`2 of ${OCCURRENCES}`);
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'Three', message: 'Three is a n', index: 0 });
  await box.press('Shift+Enter');
  await expect(status).toHaveText(`3 of ${OCCURRENCES}`);
  await expect.poll(() => currentMatch(page)).toEqual({ text: 'three', message: 'Three is a n', index: 1 });
  // Every match is still highlighted, and the page's text was not changed to draw them.
  await expect.poll(() => highlightSizes(page)).toEqual({ matches: OCCURRENCES, current: 1 });
  await expect(messageLog(page).locator('mark')).toHaveCount(0);
  await expect(assistantMessages(page).nth(0).locator('p')).toHaveText('Three is a number: three, and in bold three.');
}

async function closeFind(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close search' }).click();
  await expect(page.getByRole('searchbox', { name: 'Find in conversation' })).toHaveCount(0);
  await expect.poll(() => highlightSizes(page)).toEqual({});
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`Find counts every occurrence, steps through them and highlights them (${colorScheme})`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme });
      await conversationWithMatches(page);
      await page.getByRole('button', { name: 'Find in conversation' }).click();
      await walkTheMatches(page);
      await page.screenshot({ path: testInfo.outputPath(`find-1280-${colorScheme}.png`) });
      await closeFind(page);
    });
  }

  test('in a reply taller than the screen, each match is scrolled into view in turn', async ({ page }) => {
    const paragraphs = Array.from({ length: 60 }, (_, index) => `Paragraph ${index + 1}${index === 0 || index === 59 ? ' has the needle.' : '.'}`);
    await page.goto('/');
    // In one piece: the reply's streaming is not what this test is about.
    await useScript(page, { steps: [{ text: paragraphs.join('\n\n') }], chunkSize: 4000, chunkDelayMs: 1 });
    await newConversation(page);
    await send(page, 'A long one');
    const reply = assistantMessages(page).nth(0);
    await expect(reply).toHaveAttribute('data-status', 'complete');
    await expect(reply.locator('p').last()).toHaveText('Paragraph 60 has the needle.');
    const log = messageLog(page);
    expect((await reply.boundingBox())!.height, 'the reply is taller than the log').toBeGreaterThan((await log.boundingBox())!.height);

    /** Whether the current match lies inside the visible part of the log. */
    const currentInView = () =>
      page.evaluate(() => {
        const current = [...(CSS.highlights.get('find-current') ?? [])][0] as Range | undefined;
        const box = document.querySelector('[role="log"]')!.getBoundingClientRect();
        if (!current) return false;
        const rect = current.getBoundingClientRect();
        return rect.height > 0 && rect.top >= box.top && rect.bottom <= box.bottom;
      });
    await page.getByRole('button', { name: 'Find in conversation' }).click();
    const box = page.getByRole('searchbox', { name: 'Find in conversation' });
    const status = page.getByRole('search', { name: 'Find in conversation' }).getByRole('status');
    await box.fill('needle');
    await expect(status).toHaveText('2 of 2');
    await expect.poll(() => currentMatch(page)).toEqual({ text: 'needle', message: 'Paragraph 1 ', index: 1 });
    await expect.poll(currentInView).toBe(true);
    await box.press('Enter');
    await expect(status).toHaveText('1 of 2');
    await expect.poll(() => currentMatch(page)).toEqual({ text: 'needle', message: 'Paragraph 1 ', index: 0 });
    await expect.poll(currentInView).toBe(true);
    await box.press('Enter');
    await expect(status).toHaveText('2 of 2');
    await expect.poll(currentInView).toBe(true);
  });

  test('without the Custom Highlight API, Find still counts and moves from match to match', async ({ page }) => {
    await page.addInitScript(() => {
      delete (CSS as { highlights?: unknown }).highlights;
    });
    await conversationWithMatches(page);
    expect(await page.evaluate(() => 'highlights' in CSS)).toBe(false);
    await page.getByRole('button', { name: 'Find in conversation' }).click();
    const box = page.getByRole('searchbox', { name: 'Find in conversation' });
    const status = page.getByRole('search', { name: 'Find in conversation' }).getByRole('status');
    await box.fill('three');
    await expect(status).toHaveText(`${OCCURRENCES} of ${OCCURRENCES}`);
    await box.press('Enter');
    await expect(status).toHaveText(`4 of ${OCCURRENCES}`);
    // The message of the current match is marked instead.
    await expect(messageLog(page).locator('.search-current')).toContainText('Three is a number');
    await box.press('Shift+Enter');
    await expect(status).toHaveText(`${OCCURRENCES} of ${OCCURRENCES}`);
    await expect(messageLog(page).locator('.search-current')).toContainText('Once more');
  });
});

test.describe('at 360 px with touch', () => {
  test.use({ ...PHONE });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`Find is in "Conversation actions", fits the screen with 44 px targets, and highlights (${colorScheme})`, async ({ page }, testInfo) => {
      await page.emulateMedia({ colorScheme });
      await conversationWithMatches(page);
      // Not above the log on a phone: in the header's menu.
      await expect(page.getByRole('button', { name: 'Find in conversation' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Conversation actions' }).tap();
      await page.getByRole('button', { name: 'Find in conversation' }).tap();
      await expect(page.getByRole('searchbox', { name: 'Find in conversation' })).toBeFocused();
      await expect(page.getByRole('button', { name: 'Conversation actions' })).toHaveAttribute('aria-expanded', 'false');

      await walkTheMatches(page);
      const controls = [
        page.getByRole('searchbox', { name: 'Find in conversation' }),
        page.getByRole('button', { name: 'Older match' }),
        page.getByRole('button', { name: 'Newer match' }),
        page.getByRole('button', { name: 'Close search' }),
      ];
      for (const control of controls) {
        const box = (await control.boundingBox())!;
        expect(box.x, 'starts on screen').toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, 'ends on screen').toBeLessThanOrEqual(360);
        expect(box.height, 'a finger-sized target').toBeGreaterThanOrEqual(44);
        if (control !== controls[0]) expect(box.width, 'a finger-sized target').toBeGreaterThanOrEqual(44);
      }
      // One row: the find bar does not take more of the conversation's height than it must.
      const rows = new Set(await Promise.all(controls.map(async (control) => Math.round((await control.boundingBox())!.y))));
      expect(rows.size).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: testInfo.outputPath(`find-360-${colorScheme}.png`) });
      await closeFind(page);
    });
  }
});

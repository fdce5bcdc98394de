import { expect, test, type Locator, type Page } from '@playwright/test';
import { messageLog } from './fixtures';
import { askQuestions, questionForm, questionScript, questionTab, type ScriptQuestion } from './question-helpers';

// At 1280 px with "Find in conversation" open, a tall question is read from its top: its tab row and text
// are inside the log, below the find bar, after a tab switch and after a reload (which used to open it at its end).

function tallQuestion(header: string): ScriptQuestion {
  return {
    header,
    question: `Which ${header} option fits best?`,
    options: Array.from({ length: 8 }, (_, index) => ({ label: `${header} ${index + 1}`, description: 'A description long enough to take a line' })),
  };
}

/** Whether `target` lies wholly inside the log's visible part and below the find bar's row. */
async function readable(page: Page, target: Locator): Promise<boolean> {
  const [box, log, tools] = await Promise.all([target.boundingBox(), messageLog(page).boundingBox(), page.locator('.message-tools').boundingBox()]);
  if (!box || !log || !tools) return false;
  return box.y >= log.y && box.y + box.height <= log.y + log.height && box.y >= tools.y + tools.height;
}

test('a tall question stays readable from its top under an open find bar, after a tab switch and a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await askQuestions(page, questionScript([tallQuestion('Alpha'), tallQuestion('Beta'), tallQuestion('Gamma')]));

  await page.getByRole('button', { name: 'Find in conversation', exact: true }).click();
  await expect(page.getByRole('searchbox', { name: 'Find in conversation', exact: true })).toBeFocused();
  const tabRow = questionForm(page).getByRole('tablist');
  await questionTab(page, 'Beta').click();
  await expect.poll(() => readable(page, tabRow)).toBe(true);
  await expect.poll(() => readable(page, questionForm(page).getByText('Which Beta option fits best?', { exact: true }))).toBe(true);

  await page.reload();
  await expect(questionForm(page)).toBeVisible();
  await expect.poll(() => readable(page, tabRow)).toBe(true);
  await expect.poll(() => readable(page, questionForm(page).locator('legend:visible'))).toBe(true);
});

import { expect, test, type Page } from '@playwright/test';
import {
  COLOR,
  PROJECT,
  STANDARD_QUESTIONS,
  TOPPINGS,
  askQuestions,
  completeReply,
  expectStoredRunState,
  fillStandardAnswers,
  otherAnswerBox,
  questionForm,
  questionGroup,
  questionSummary,
  showQuestion,
  questionTab,
  readStoredConversation,
  standardAnsweredResult,
  submitButton,
} from './question-helpers';

// The form without a mouse (digits pick, arrows move, Enter submits, Esc dismisses), and on a phone.

/** Presses Shift+Tab until a question tab has the focus (the roving tab stop of the tab list). */
async function focusTabListBackwards(page: Page): Promise<void> {
  for (let presses = 0; presses < 8; presses += 1) {
    if (await page.evaluate(() => document.activeElement?.getAttribute('role') === 'tab')) return;
    await page.keyboard.press('Shift+Tab');
  }
  throw new Error('Shift+Tab never reached the question tabs');
}

test('keyboard only: digits pick, arrows and Tab move between questions, Enter submits', async ({ page }) => {
  await askQuestions(page);
  await questionTab(page, COLOR.header).focus();

  // "1" picks Red; a single choice moves on to the next question by itself.
  await page.keyboard.press('1');
  await expect(questionTab(page, TOPPINGS.header)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('1');
  await page.keyboard.press('3');
  const toppings = questionGroup(page, TOPPINGS);
  await expect(toppings.getByRole('checkbox', { name: 'Cheese', exact: true })).toBeChecked();
  await expect(toppings.getByRole('checkbox', { name: 'Olives', exact: true })).not.toBeChecked();
  await expect(toppings.getByRole('checkbox', { name: 'Basil', exact: true })).toBeChecked();

  await focusTabListBackwards(page);
  await expect(questionTab(page, TOPPINGS.header)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(questionTab(page, PROJECT.header)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(questionTab(page, TOPPINGS.header)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(questionTab(page, COLOR.header)).toBeFocused();
  await expect(questionGroup(page, COLOR).getByRole('radio', { name: 'Red', exact: true })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(questionTab(page, PROJECT.header)).toBeFocused();

  // The digit after the last option is "Other"; it opens the text box with the focus in it.
  await page.keyboard.press(String(PROJECT.options.length + 1));
  await expect(otherAnswerBox(page)).toBeFocused();
  await page.keyboard.type('Zed');
  await page.keyboard.press('Enter');

  await expect(questionSummary(page)).toContainText('Answered');
  await expect(questionSummary(page).getByRole('listitem')).toHaveText(['Color: Red', 'Toppings: Cheese, Basil', 'Project: "Zed"']);
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText(`Received: ${standardAnsweredResult('Red')}`);
});

test('keyboard only: Esc dismisses the questions', async ({ page }) => {
  const conversationId = await askQuestions(page);
  await questionTab(page, COLOR.header).focus();
  await page.keyboard.press('2');
  await expect(questionTab(page, TOPPINGS.header)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  // An answer was filled in: Esc asks before throwing it away, with the focus on the choice to discard.
  await expect(page.getByRole('alert').filter({ hasText: 'discard the answers you filled in?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Discard and dismiss', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(questionSummary(page)).toContainText('Dismissed');
  // The form is gone; the focus is where the user writes next, not on <body>.
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeFocused();
  await expect(questionForm(page)).toHaveCount(0);
  await expectStoredRunState(page, conversationId, 'idle');
  expect((await readStoredConversation(page, conversationId)).questions.map((block) => block.resolution)).toEqual(['dismissed']);
});

test('at 360 px the form fits: nothing is clipped and Submit can be reached', async ({ page }) => {
  const width = 360;
  await page.setViewportSize({ width, height: 740 });
  await askQuestions(page);
  const form = questionForm(page);

  for (const question of STANDARD_QUESTIONS) {
    // At 360 px the tabs give way to the stepper; showQuestion uses whichever is there.
    await showQuestion(page, question.header);
    const group = questionGroup(page, question);
    await expect(group).toBeVisible();
    const choices = group.getByRole(question.multiple ? 'checkbox' : 'radio');
    await expect(choices).toHaveCount(question.options.length + (question.custom === false ? 0 : 1));
    // Each choice's whole label (input, digit, text, description) lies inside the screen.
    const rows = group.locator('label');
    for (let index = 0; index < (await rows.count()); index += 1) {
      const box = await rows.nth(index).boundingBox();
      expect(box, `option ${index + 1} of "${question.header}" is laid out`).not.toBeNull();
      expect(box!.x, `option ${index + 1} of "${question.header}" starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `option ${index + 1} of "${question.header}" ends on screen`).toBeLessThanOrEqual(width);
    }
  }
  const formBox = await form.boundingBox();
  expect(formBox!.width).toBeLessThanOrEqual(width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').toBeLessThanOrEqual(width);

  await fillStandardAnswers(page);
  await submitButton(page).scrollIntoViewIfNeeded();
  await expect(submitButton(page)).toBeInViewport();
  const submitBox = await submitButton(page).boundingBox();
  expect(submitBox!.x + submitBox!.width).toBeLessThanOrEqual(width);
  await submitButton(page).click();
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText(`Received: ${standardAnsweredResult('Red')}`);
});

import { expect, test } from '@playwright/test';
import { messageBox } from './fixtures';
import { LONG_QUESTIONS, PHONE, expectAxeClean, expectInView, expectNoSidewaysScroll, expectTouchTargets, questionText } from './phone-helpers';
import {
  askQuestions,
  completeReply,
  expectCurrentQuestion,
  questionForm,
  questionGroup,
  questionScript,
  questionStepper,
  questionSummary,
  submitButton,
} from './question-helpers';

// The question form on a phone: a 4-question × 10-option form with long descriptions, read and
// answered by taps at 360×740. Service workers are blocked so the one-time offline note cannot change a screenshot.
test.use({ ...PHONE, serviceWorkers: 'block' });

const [DESTINATION, ACTIVITIES, BUDGET, PACE] = LONG_QUESTIONS as [
  (typeof LONG_QUESTIONS)[number],
  (typeof LONG_QUESTIONS)[number],
  (typeof LONG_QUESTIONS)[number],
  (typeof LONG_QUESTIONS)[number],
];
/** Screenshots compare layout, not antialiasing: a few stray pixels may differ between runs. */
const SCREENSHOT = { animations: 'disabled', maxDiffPixelRatio: 0.01 } as const;

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} mode`, () => {
    test.use({ colorScheme });

    test('the form arrives with its first question at the top, and taps answer it all without losing the question or scrolling sideways', async ({ page }) => {
      await askQuestions(page, questionScript(LONG_QUESTIONS), 'Plan a trip');
      // The top of the form, not its end: the question's text, then its options; Submit in the sticky bar.
      await expectInView(page, questionText(page, DESTINATION), 'the first question’s text');
      await expect(questionStepper(page)).toContainText('1 of 4');
      await expect(submitButton(page)).toBeInViewport();
      await expectNoSidewaysScroll(page);
      await expect(page).toHaveScreenshot(`form-arrived-${colorScheme}.png`, SCREENSHOT);

      // A single choice far down the list: the form goes on to the next question, whose text is in view.
      await questionGroup(page, DESTINATION).getByRole('radio', { name: 'Place option 7', exact: true }).tap();
      await expectCurrentQuestion(page, ACTIVITIES.header);
      await expectInView(page, questionText(page, ACTIVITIES), 'the second question’s text');
      await expectNoSidewaysScroll(page);

      // Multiple choice: two taps, then Next.
      await questionGroup(page, ACTIVITIES).getByRole('checkbox', { name: 'Activity option 2', exact: true }).tap();
      await questionGroup(page, ACTIVITIES).getByRole('checkbox', { name: 'Activity option 9', exact: true }).tap();
      await expect(questionGroup(page, ACTIVITIES).getByRole('checkbox', { checked: true })).toHaveCount(2);
      await expectNoSidewaysScroll(page);
      await questionStepper(page).getByRole('button', { name: 'Next question', exact: true }).tap();
      await expectCurrentQuestion(page, BUDGET.header);
      await expectInView(page, questionText(page, BUDGET), 'the third question’s text');
      await expect(page).toHaveScreenshot(`form-third-question-${colorScheme}.png`, SCREENSHOT);

      await questionGroup(page, BUDGET).getByRole('radio', { name: 'Budget option 10', exact: true }).tap();
      await expectCurrentQuestion(page, PACE.header);
      await expectInView(page, questionText(page, PACE), 'the fourth question’s text');
      await questionGroup(page, PACE).getByRole('radio', { name: 'Pace option 1', exact: true }).tap();
      await expectCurrentQuestion(page, 'Review');
      await expectInView(page, questionForm(page).getByText('Your answers', { exact: true }), 'the Review title');
      await expect(questionStepper(page).locator('[data-answered="true"]')).toHaveCount(4);
      // The short Review brings the end of the log into view without a scroll: nothing newer to jump to, and no button
      // over the message's actions.
      await expect(page.getByRole('button', { name: 'Jump to latest', exact: true })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await expect(page).toHaveScreenshot(`form-review-${colorScheme}.png`, SCREENSHOT);

      await submitButton(page).tap();
      await expect(questionSummary(page)).toContainText('Answered');
      const reply = await completeReply(page, 1);
      await expect(reply).toContainText(`"${DESTINATION.question}"="Place option 7"`);
      await expect(reply).toContainText(`"${ACTIVITIES.question}"=["Activity option 2", "Activity option 9"]`);
      await expect(reply).toContainText(`"${PACE.question}"="Pace option 1"`);
      await expectNoSidewaysScroll(page);
    });

    test('the axe scan of the long form stays clean at 360 px', async ({ page }) => {
      await askQuestions(page, questionScript(LONG_QUESTIONS), 'Plan a trip');
      await expectAxeClean(page, `the long form at 360 px (${colorScheme})`);
      await questionStepper(page).getByRole('button', { name: 'Next question', exact: true }).tap();
      await questionGroup(page, ACTIVITIES).getByRole('checkbox', { name: 'Activity option 1', exact: true }).tap();
      await expectAxeClean(page, `the second question at 360 px (${colorScheme})`);
    });
  });
}

test('every target in the form and the composer is at least 44×44 px, and touch screens show no digit badges', async ({ page }) => {
  await askQuestions(page, questionScript(LONG_QUESTIONS), 'Plan a trip');
  const form = questionForm(page);
  const composer = page.locator('form.composer');
  await expect(form.locator('.question-option__key').first()).toBeHidden();
  await expectTouchTargets(form.locator('label.question-option, button, textarea'), 'the first question');
  await expectTouchTargets(composer.locator('textarea, button'), 'the composer');

  // Clear answer and the Other text appear once chosen; Change buttons on Review.
  await questionStepper(page).getByRole('button', { name: 'Next question', exact: true }).tap();
  await questionGroup(page, ACTIVITIES).getByRole('checkbox', { name: 'Other', exact: true }).tap();
  await expect(form.getByRole('textbox', { name: 'Other answer', exact: true })).toBeVisible();
  await expectTouchTargets(form.locator('label.question-option, button, textarea'), 'a multiple choice with Other');
  await messageBox(page).fill('typed');
  await expectTouchTargets(composer.locator('textarea, button'), 'the composer with text');
  for (let step = 0; step < 3; step += 1) await questionStepper(page).getByRole('button', { name: 'Next question', exact: true }).tap();
  await expectCurrentQuestion(page, 'Review');
  await expectTouchTargets(form.locator('button'), 'Review');
});

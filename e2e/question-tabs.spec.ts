import { expect, test, type Page } from '@playwright/test';
import { assistantMessages } from './fixtures';
import {
  COLOR,
  askQuestions,
  completeReply,
  expectStoredRunState,
  fillStandardAnswers,
  questionForm,
  questionGroup,
  questionSummary,
  readStoredConversation,
  standardAnsweredResult,
  submitButton,
} from './question-helpers';

// Two tabs of one browser on one waiting question: one outcome, recorded once, seen by both.

/** Opens the same conversation in a second page of the same context, with the form showing. */
async function openSecondTab(first: Page, conversationId: string): Promise<Page> {
  const second = await first.context().newPage();
  await second.goto(`/#/c/${conversationId}`);
  await expect(questionForm(second)).toBeVisible();
  return second;
}

test('both tabs submit at once: exactly one outcome and one reply, and both tabs agree', async ({ page: first }) => {
  const conversationId = await askQuestions(first);
  const second = await openSecondTab(first, conversationId);
  // Different answers per tab, so the recorded one tells which tab won.
  await fillStandardAnswers(first, 'Red');
  await fillStandardAnswers(second, 'Blue');

  // Playwright's clicks are sequenced by one driver; a click scheduled by each page's own clock for the same
  // instant lands in both tabs within a millisecond or so, before either hears of the other's answer.
  const clickAt = Date.now() + 300;
  const scheduleClick = (tab: Page) =>
    submitButton(tab).evaluate((button: HTMLElement, at: number) => {
      setTimeout(() => button.click(), at - Date.now());
    }, clickAt);
  await Promise.all([scheduleClick(first), scheduleClick(second)]);

  // Without a reload both tabs end on a summary (the loser may also say it was already answered).
  await expect(questionSummary(first)).toContainText('Answered');
  await expect(questionSummary(second)).toContainText('Answered');
  await expect(questionForm(first)).toHaveCount(0);
  await expect(questionForm(second)).toHaveCount(0);
  // Already before a reload, the losing tab shows the winner's answers, not its own.
  const shownColor = await recordedColor(first);
  expect(await recordedColor(second)).toBe(shownColor);
  // Only the loser may say it was already answered.
  const notice = (tab: Page) => tab.getByText('Already answered in another tab', { exact: true }).count();
  expect((await notice(first)) + (await notice(second))).toBeLessThanOrEqual(1);
  await completeReply(first, 1);
  await expectStoredRunState(first, conversationId, 'idle');

  const stored = await readStoredConversation(first, conversationId);
  expect(stored.questions.map((block) => block.status)).toEqual(['success']);
  // The user's message, the question, one reply: the losing submit did not start a second run.
  expect(stored.messageCount).toBe(3);

  await Promise.all([first.reload(), second.reload()]);
  const winnerColor = await recordedColor(first);
  expect(winnerColor).toBe(shownColor);
  expect(await recordedColor(second)).toBe(winnerColor);
  for (const tab of [first, second]) {
    await expect(questionSummary(tab).getByRole('listitem')).toHaveText([`Color: ${winnerColor}`, 'Toppings: Cheese, Basil', 'Project: "Zed"']);
    await expect(assistantMessages(tab)).toHaveCount(2);
    await expect(assistantMessages(tab).nth(1)).toContainText(`Received: ${standardAnsweredResult(winnerColor)}`);
  }
});

test('answering in one tab turns the other tab’s form into the summary without a reload', async ({ page: first }) => {
  const conversationId = await askQuestions(first);
  const second = await openSecondTab(first, conversationId);
  // The other tab has started answering differently; what it chose must not matter once the question is answered.
  await questionGroup(second, COLOR).getByRole('radio', { name: 'Blue', exact: true }).click();

  await fillStandardAnswers(first, 'Red');
  await submitButton(first).click();

  await expect(questionForm(second)).toHaveCount(0);
  // The tab whose answer lost says so, and keeps what it had filled in, marked as not used.
  await expect(questionSummary(second)).toContainText('Answered in another tab');
  await expect(questionSummary(second).getByRole('listitem')).toHaveText(['Color: Red', 'Toppings: Cheese, Basil', 'Project: "Zed"']);
  await expect(questionSummary(second).getByText('Your answers in this tab were not used: Color: Blue', { exact: true })).toBeVisible();
  // The tab that answered claims no other tab.
  await expect(questionSummary(first)).toContainText('Answered');
  await expect(questionSummary(first)).not.toContainText('another tab');
  await expect(assistantMessages(second).nth(1)).toContainText(`Received: ${standardAnsweredResult('Red')}`);
  await expect(assistantMessages(second)).toHaveCount(2);
});

/** The color the summary records ("Color: Red" → "Red"). */
async function recordedColor(page: Page): Promise<'Red' | 'Blue'> {
  const line = questionSummary(page).getByRole('listitem').first();
  await expect(line).toHaveText(/^Color: (Red|Blue)$/);
  return (await line.textContent())?.endsWith('Blue') ? 'Blue' : 'Red';
}

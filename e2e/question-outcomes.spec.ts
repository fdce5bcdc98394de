import { expect, test, type Page } from '@playwright/test';
import { assistantMessages, messageBox, newConversation, send, userMessages, useScript } from './fixtures';
import {
  ASKING_TEXT,
  COLOR,
  PROJECT,
  RECEIVED_STEP,
  TOPPINGS,
  USER_WROTE_STEP,
  askQuestions,
  chatStatus,
  completeReply,
  conversationItem,
  dismissButton,
  expectStoredRunState,
  fillStandardAnswers,
  questionForm,
  questionScript,
  questionSummary,
  questionTab,
  readStoredConversation,
  standardAnsweredResult,
  submitButton,
  type ScriptQuestion,
} from './question-helpers';

// Every outcome of a question (README, "One pause path"), each in its own conversation, with what the (scripted) model was told.

test('answered via the form: Review lists the answers, the summary keeps them, the model receives them', async ({ page }) => {
  await askQuestions(page);
  await expect(questionTab(page, COLOR.header)).toHaveAttribute('aria-selected', 'true');
  await fillStandardAnswers(page);

  await questionTab(page, 'Review').click();
  const review = questionForm(page).getByRole('tabpanel', { name: 'Review', exact: true });
  await expect(review.getByRole('listitem')).toHaveText([/^Color: Red/, /^Toppings: Cheese, Basil/, /^Project: "Zed"/]);
  await submitButton(page).click();

  const summary = questionSummary(page);
  await expect(summary).toContainText('Answered');
  await expect(summary.getByRole('listitem')).toHaveText(['Color: Red', 'Toppings: Cheese, Basil', 'Project: "Zed"']);
  await expect(questionForm(page)).toHaveCount(0);

  const reply = await completeReply(page, 1);
  await expect(reply).toContainText(`Received: ${standardAnsweredResult()}`);
  await expect(assistantMessages(page)).toHaveCount(2);
});

test('while a question waits the list shows the badge and the header says so; both go once it is answered', async ({ page }) => {
  const conversationId = await askQuestions(page);
  const item = conversationItem(page, conversationId);
  await expect(item).toHaveAttribute('data-pending', 'true');
  await expect(item).toContainText('Question waiting');
  await expect(chatStatus(page, 'Waiting for your answer')).toBeVisible();
  // The composer stays usable while the question waits.
  await expect(messageBox(page)).toBeEnabled();

  await fillStandardAnswers(page);
  await submitButton(page).click();
  await completeReply(page, 1);
  await expect(item).toHaveAttribute('data-pending', 'false');
  await expect(item).not.toContainText('Question waiting');
  await expect(chatStatus(page, 'Waiting for your answer')).toHaveCount(0);
});

test('dismissed: the summary says so, no reply follows, and the next message shows the model was told', async ({ page }) => {
  const conversationId = await askQuestions(page);
  await dismissButton(page).click();

  await expect(questionSummary(page)).toContainText('Dismissed');
  await expect(questionForm(page)).toHaveCount(0);
  await expectStoredRunState(page, conversationId, 'idle');
  await expect(chatStatus(page, 'Waiting for your answer')).toHaveCount(0);
  await expect(conversationItem(page, conversationId)).toHaveAttribute('data-pending', 'false');
  // Idle and still one reply: dismissing does not resume the run (no automatic re-asking).
  await expect(assistantMessages(page)).toHaveCount(1);
  expect((await readStoredConversation(page, conversationId)).questions.map((block) => block.resolution)).toEqual(['dismissed']);

  await send(page, 'Never mind, just pick something');
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText('Received: The user dismissed these questions without answering.');
});

test('answered in chat: a normal message while the question waits resolves it and reaches the model', async ({ page }) => {
  await askQuestions(page, questionScript(undefined, [USER_WROTE_STEP]));
  await send(page, 'Blue, and no toppings please');

  await expect(questionSummary(page)).toContainText('Answered in chat');
  await expect(questionForm(page)).toHaveCount(0);
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText('User wrote: Blue, and no toppings please / The user did not use the form and replied in chat instead.');
  await expect(userMessages(page)).toHaveCount(2);
});

test('stopped while waiting: the question is recorded as Stopped and the model is told so later', async ({ page }) => {
  await page.goto('/');
  const conversationId = await askQuestions(page);
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(questionSummary(page)).toContainText('Stopped');
  await expect(questionForm(page)).toHaveCount(0);
  await expectStoredRunState(page, conversationId, 'idle');
  await expect(assistantMessages(page)).toHaveCount(1);

  await send(page, 'Start again');
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText('Received: The user stopped the run before answering these questions.');
});

const invalidQuestions: { name: string; question: ScriptQuestion; problem: RegExp }[] = [
  {
    name: 'eleven options',
    question: { ...PROJECT, options: Array.from({ length: 11 }, (_, index) => ({ label: `Choice ${index + 1}` })) },
    problem: /questions\[0\]\.options/,
  },
  {
    name: 'one option without Other',
    question: { ...TOPPINGS, options: [{ label: 'Cheese' }], multiple: false, custom: false },
    problem: /questions\[0\]\.options: needs at least 2 options when custom is false/,
  },
];

for (const invalid of invalidQuestions) {
  test(`an invalid question (${invalid.name}) shows an error on the call, no form, and the loop goes on`, async ({ page }) => {
    await page.goto('/');
    await useInvalidScript(page, invalid.question);

    const asking = assistantMessages(page).first();
    await expect(asking).toContainText(ASKING_TEXT);
    await expect(asking).toContainText('Tool: question');
    await expect(asking).toContainText('Failed');
    await expect(asking).toContainText('Invalid input for the question tool');
    await expect(asking).toContainText(invalid.problem);

    // The loop went on to the next step with the error as the tool result.
    const reply = await completeReply(page, 1);
    await expect(reply).toContainText('Received: Invalid input for the question tool');
    await expect(reply).toContainText(invalid.problem);
    await expect(questionForm(page)).toHaveCount(0);
    await expect(questionSummary(page)).toHaveCount(0);
    await expect(chatStatus(page, 'Waiting for your answer')).toHaveCount(0);
  });
}

/** Like askQuestions, but the question is invalid so no form ever shows: waits for the first reply instead. */
async function useInvalidScript(page: Page, question: ScriptQuestion): Promise<void> {
  await useScript(page, questionScript([question], [RECEIVED_STEP]));
  await newConversation(page);
  await send(page, 'Ask me something odd');
}

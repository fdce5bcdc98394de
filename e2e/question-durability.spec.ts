import { expect, test } from '@playwright/test';
import { assistantMessages, cutNetwork, waitForServiceWorker } from './fixtures';
import {
  COLOR,
  PROJECT,
  TOPPINGS,
  askQuestions,
  completeReply,
  expectStoredRunState,
  fillStandardAnswers,
  otherAnswerBox,
  questionForm,
  questionGroup,
  questionSummary,
  questionTab,
  readStoredConversation,
  standardAnsweredResult,
  submitButton,
} from './question-helpers';

// The pause is stored state: reloads, drafts and a lost network must not lose or change it.

test('a reload while the question waits brings the form back, and answering resumes the same turn', async ({ page }) => {
  const conversationId = await askQuestions(page);
  await page.reload();

  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  await expect(questionForm(page)).toBeVisible();
  await expect(questionTab(page, COLOR.header)).toBeVisible();
  await expect(questionTab(page, TOPPINGS.header)).toBeVisible();
  await expect(questionTab(page, PROJECT.header)).toBeVisible();
  await expect(assistantMessages(page)).toHaveCount(1);

  await fillStandardAnswers(page, 'Blue');
  await submitButton(page).click();
  await expect(questionSummary(page)).toContainText('Answered');
  // Step 1 of the script: the model's next call saw the answers as the question's tool result.
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText(`Received: ${standardAnsweredResult('Blue')}`);
  await expect(assistantMessages(page)).toHaveCount(2);
});

test('a half-filled form survives a reload once its draft is saved', async ({ page }) => {
  const conversationId = await askQuestions(page);
  await questionGroup(page, COLOR).getByRole('radio', { name: 'Blue', exact: true }).click();
  await questionGroup(page, TOPPINGS).getByRole('checkbox', { name: 'Olives', exact: true }).check();
  await questionTab(page, PROJECT.header).click();
  await questionGroup(page, PROJECT).getByRole('radio', { name: 'Other', exact: true }).check();
  await otherAnswerBox(page).pressSequentially('Half an ans');

  // The draft is saved after a quiet moment; wait for it to be stored rather than sleeping.
  await expect
    .poll(async () => (await readStoredConversation(page, conversationId)).questions[0]?.draft?.answers, { intervals: [100] })
    .toEqual([{ selected: ['Blue'] }, { selected: ['Olives'] }, { selected: [], other: 'Half an ans' }]);
  await page.reload();

  await expect(questionForm(page)).toBeVisible();
  // The tab that was open is open again, with the text as typed.
  await expect(questionTab(page, PROJECT.header)).toHaveAttribute('aria-selected', 'true');
  await expect(questionGroup(page, PROJECT).getByRole('radio', { name: 'Other', exact: true })).toBeChecked();
  await expect(otherAnswerBox(page)).toHaveValue('Half an ans');
  await questionTab(page, COLOR.header).click();
  await expect(questionGroup(page, COLOR).getByRole('radio', { name: 'Blue', exact: true })).toBeChecked();
  await expect(questionGroup(page, COLOR).getByRole('radio', { name: 'Red', exact: true })).not.toBeChecked();
  await questionTab(page, TOPPINGS.header).click();
  await expect(questionGroup(page, TOPPINGS).getByRole('checkbox', { name: 'Olives', exact: true })).toBeChecked();
  await expect(questionGroup(page, TOPPINGS).getByRole('checkbox', { name: 'Cheese', exact: true })).not.toBeChecked();
  // A draft is not an answer: the question still waits.
  expect((await readStoredConversation(page, conversationId)).questions[0]?.status).toBe('pending');
});

test('offline, the form still comes back after a reload and answering gets the (local) reply', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorker(page);
  const conversationId = await askQuestions(page);

  const reachedNetwork = await cutNetwork(context);
  await page.reload();
  await expect(questionForm(page)).toBeVisible();

  await fillStandardAnswers(page);
  await submitButton(page).click();
  await expect(questionSummary(page)).toContainText('Answered');
  const reply = await completeReply(page, 1);
  await expect(reply).toContainText(`Received: ${standardAnsweredResult()}`);
  await expectStoredRunState(page, conversationId, 'idle');
  expect(reachedNetwork).toEqual([]);
});

import { expect, type Locator, type Page } from '@playwright/test';
import { assistantMessages, newConversation, send, useScript, type ScriptInput, type ScriptStep } from './fixtures';

/**
 * Shared pieces of the question-tool end-to-end specs: a deterministic question script, the form's and
 * summary's locators by their contract names, and read-only looks at what the worker stored.
 */

/** A question as the model sends it (the tool's input, src/schema/forms/question.ts). */
export interface ScriptQuestion {
  header: string;
  question: string;
  options: { label: string; description?: string }[];
  multiple?: boolean;
  custom?: boolean;
}

/** The three questions most specs ask: one single choice, one multiple choice, one whose answer is "Other". */
export const COLOR = {
  header: 'Color',
  question: 'Which color should the theme use?',
  options: [
    { label: 'Red', description: 'Warm and loud' },
    { label: 'Blue', description: 'Cool and calm' },
  ],
  custom: false,
} satisfies ScriptQuestion;

export const TOPPINGS = {
  header: 'Toppings',
  question: 'Which toppings do you want?',
  options: [{ label: 'Cheese' }, { label: 'Olives' }, { label: 'Basil' }],
  multiple: true,
  custom: false,
} satisfies ScriptQuestion;

export const PROJECT = {
  header: 'Project',
  question: 'What should the project be called?',
  options: [{ label: 'Parley' }],
} satisfies ScriptQuestion;

export const STANDARD_QUESTIONS: ScriptQuestion[] = [COLOR, TOPPINGS, PROJECT];

/** The text the step before the question streams; it tells the question's message apart from replies. */
export const ASKING_TEXT = 'Before I start, a few questions.';

/** Step 1 by default: shows what the model received as the question's tool result. */
export const RECEIVED_STEP: ScriptStep = { text: 'Received: {{lastToolResult}}' };
/** Shows both the last user message and the last tool result. */
export const USER_WROTE_STEP: ScriptStep = { text: 'User wrote: {{lastUserMessage}} / {{lastToolResult}}' };

/**
 * A script whose first reply asks `questions`, followed by `after` (by default "Received…" then "User wrote…").
 * Fast pace: the specs wait on content, not on streaming.
 */
export function questionScript(questions: readonly ScriptQuestion[] = STANDARD_QUESTIONS, after: ScriptStep[] = [RECEIVED_STEP, USER_WROTE_STEP]): ScriptInput {
  return {
    steps: [{ text: ASKING_TEXT, toolCalls: [{ name: 'question', args: { questions: [...questions] } }] }, ...after],
    chunkSize: 40,
    chunkDelayMs: 5,
  };
}

/**
 * Opens the app, installs `script`, starts a new conversation and sends `prompt`; resolves with the
 * conversation's id once the question form is on screen.
 */
export async function askQuestions(page: Page, script: ScriptInput = questionScript(), prompt = 'Plan my project'): Promise<string> {
  if (!page.url().startsWith('http')) await page.goto('/');
  await useScript(page, script);
  const conversationId = await newConversation(page);
  await send(page, prompt);
  await expect(questionForm(page)).toBeVisible();
  return conversationId;
}

/** The pending question form (a `form` named "Question from Parley"). */
export function questionForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Question from Parley', exact: true });
}

/** The resolved question's summary (a region named "Parley’s questions"). */
export function questionSummary(page: Page): Locator {
  return page.getByRole('region', { name: 'Parley’s questions', exact: true });
}

/** A question tab by its header, or "Review". */
export function questionTab(page: Page, header: string): Locator {
  return questionForm(page).getByRole('tab', { name: header, exact: true });
}

/** The stepper that stands in for the tabs on a narrow screen (below 600 px). */
export function questionStepper(page: Page): Locator {
  return questionForm(page).getByRole('group', { name: 'Question steps', exact: true });
}

/**
 * Brings a question (by its header) or "Review" to the front, whatever the width: its tab on a wide screen,
 * Previous/Next of the stepper on a narrow one.
 */
export async function showQuestion(page: Page, header: string): Promise<void> {
  const tab = questionTab(page, header);
  if (await tab.isVisible()) {
    await tab.click();
    return;
  }
  const stepper = questionStepper(page);
  const previous = stepper.getByRole('button', { name: 'Previous question', exact: true });
  const next = stepper.getByRole('button', { name: 'Next question', exact: true });
  while (await previous.isEnabled()) await previous.click();
  while (!(await currentStep(page)).startsWith(header) && (await next.isEnabled())) await next.click();
  await expectCurrentQuestion(page, header);
}

/** The stepper's current step without its count: "Toppings", or "Review". */
async function currentStep(page: Page): Promise<string> {
  const text = await questionStepper(page).locator('p').innerText();
  return text.replace(/^\d+ of \d+\s*/, '');
}

/** Fails unless `header` (or "Review") is the question in front: its tab selected, or the stepper's step. */
export async function expectCurrentQuestion(page: Page, header: string): Promise<void> {
  if (await questionStepper(page).isVisible()) await expect.poll(() => currentStep(page)).toMatch(new RegExp(`^${header}(,|$)`));
  else await expect(questionTab(page, header)).toHaveAttribute('aria-selected', 'true');
}

/** The visible question's fieldset, named by the question text. */
export function questionGroup(page: Page, question: ScriptQuestion): Locator {
  return questionForm(page).getByRole('group', { name: question.question, exact: true });
}

export function submitButton(page: Page): Locator {
  return questionForm(page).getByRole('button', { name: 'Submit answers', exact: true });
}

/** The form's Dismiss (a toast has a "Dismiss" button too). */
export function dismissButton(page: Page): Locator {
  return questionForm(page).getByRole('button', { name: 'Dismiss', exact: true });
}

export function otherAnswerBox(page: Page): Locator {
  return questionForm(page).getByRole('textbox', { name: 'Other answer', exact: true });
}

/** The list item (badge holder) of one conversation in the "Conversations" nav. */
export function conversationItem(page: Page, conversationId: string): Locator {
  return page
    .getByRole('navigation', { name: 'Conversations', exact: true })
    .getByRole('listitem')
    .filter({ has: page.locator(`a[href="#/c/${conversationId}"]`) });
}

/** The run-state line of the chat header. */
export function chatStatus(page: Page, text: string): Locator {
  return page.getByRole('main').getByText(text, { exact: true });
}

/**
 * Fills the standard form the same way everywhere: Red, Cheese + Basil, Other "Zed".
 * Picking a single choice moves the form on to the next tab by itself.
 */
export async function fillStandardAnswers(page: Page, color: 'Red' | 'Blue' = 'Red'): Promise<void> {
  await showQuestion(page, COLOR.header);
  await questionGroup(page, COLOR).getByRole('radio', { name: color, exact: true }).click();
  await expectCurrentQuestion(page, TOPPINGS.header);
  await questionGroup(page, TOPPINGS).getByRole('checkbox', { name: 'Cheese', exact: true }).check();
  await questionGroup(page, TOPPINGS).getByRole('checkbox', { name: 'Basil', exact: true }).check();
  await showQuestion(page, PROJECT.header);
  await questionGroup(page, PROJECT).getByRole('radio', { name: 'Other', exact: true }).check();
  await otherAnswerBox(page).fill('Zed');
}

/** What the model must be told for `fillStandardAnswers`, in the question tool's words. */
export function standardAnsweredResult(color: 'Red' | 'Blue' = 'Red'): string {
  return (
    `User has answered your questions: "${COLOR.question}"="${color}"; "${TOPPINGS.question}"=["Cheese", "Basil"]; ` +
    `"${PROJECT.question}"=(typed by the user: "Zed"). You can now continue with the user's answers in mind.`
  );
}

/** The n-th (0-based) assistant message once it is complete. */
export async function completeReply(page: Page, index: number): Promise<Locator> {
  const reply = assistantMessages(page).nth(index);
  await expect(reply).toHaveAttribute('data-status', 'complete');
  return reply;
}

/** A question block as the worker stored it (read-only view of the fields the specs check). */
export interface StoredQuestionBlock {
  status: string;
  resolution?: string;
  draft?: { answers: { selected: string[]; other?: string }[]; otherChosen?: boolean[]; activeTab?: number };
}

/** What IndexedDB holds for one conversation: its run state and its question blocks, oldest first. */
export interface StoredConversation {
  runState: string | undefined;
  messageCount: number;
  questions: StoredQuestionBlock[];
}

/**
 * Reads the conversation straight from the app's IndexedDB ("parley"), without going through the app.
 * Only reads; the connection is closed at once so it never blocks the worker.
 */
export function readStoredConversation(page: Page, conversationId: string): Promise<StoredConversation> {
  return page.evaluate(async (id) => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('parley');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const transaction = database.transaction(['conversations', 'messages'], 'readonly');
      const read = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const conversation = (await read(transaction.objectStore('conversations').get(id))) as { runState?: string } | undefined;
      const range = IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);
      const messages = (await read(transaction.objectStore('messages').index('by-conversation').getAll(range))) as {
        blocks: { type: string; kind?: string }[];
      }[];
      const questions = messages.flatMap((message) => message.blocks.filter((block) => block.type === 'request' && block.kind === 'question'));
      return { runState: conversation?.runState, messageCount: messages.length, questions: questions as unknown as StoredQuestionBlock[] };
    } finally {
      database.close();
    }
  }, conversationId);
}

/** Waits until the stored conversation is in `runState`. */
export async function expectStoredRunState(page: Page, conversationId: string, runState: string): Promise<void> {
  await expect.poll(async () => (await readStoredConversation(page, conversationId)).runState).toBe(runState);
}


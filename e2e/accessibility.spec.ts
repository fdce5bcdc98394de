import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { messageBox, newConversation, send, useScript, type ScriptStep } from './fixtures';
import {
  ASKING_TEXT,
  PROJECT,
  STANDARD_QUESTIONS,
  askQuestions,
  completeReply,
  fillStandardAnswers,
  otherAnswerBox,
  questionForm,
  questionGroup,
  questionSummary,
  questionTab,
  submitButton,
} from './question-helpers';

// An automated WCAG 2.1 A/AA check of the main views with axe-core. It catches what a machine can see
// (contrast, names, roles, structure); it does not replace a keyboard and screen-reader review.

// Each scan walks the whole page's DOM in the page: on a loaded two-core machine one took over 30 s, and two scans with
// the steps between them ran past the default minute (CI, load above 20).
test.describe.configure({ timeout: 180_000 });

/** The rule sets scanned: WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Impacts that fail the test; "moderate" and "minor" findings are left to review. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Markdown a model typically writes: a heading, lists, inline and block code, a quote, a link and a table
 * wide enough to scroll sideways at 360 px.
 */
const MARKDOWN_REPLY = [
  '## Weekend plan',
  '',
  'Here is what I suggest:',
  '',
  '- Saturday: a walk by the river',
  '- Sunday: the market, then `rest`',
  '',
  '1. Pack a bag',
  '2. Check the weather',
  '',
  '| Day | Morning | Afternoon | Evening | Budget |',
  '| --- | --- | --- | --- | --- |',
  '| Saturday | Riverside walk | Museum of modern art | Dinner with friends | 80 EUR |',
  '| Sunday | Farmers market | Long nap on the sofa | Board games at home | 20 EUR |',
  '',
  '> Plans change; the weather decides.',
  '',
  '```',
  'const weekend = ["saturday", "sunday"].map((day) => plan(day, { relaxed: true, budgetInEuros: 100 }));',
  '```',
  '',
  'More ideas: [a guide](https://example.com/weekend).',
].join('\n');

const MARKDOWN_STEP: ScriptStep = { text: MARKDOWN_REPLY };

/** Scans the whole page; fails with every serious or critical violation, readably. */
async function expectNoSeriousViolations(page: Page, view: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
  const report = blocking
    .map((violation) => {
      const nodes = violation.nodes
        .map((node) => {
          const detail = (node.failureSummary ?? '').split('\n').slice(1, 2).join('').trim();
          return `    - ${node.target.join(' ')}${detail ? `\n      ${detail}` : ''}`;
        })
        .join('\n');
      return `  ${violation.id} [${violation.impact}] ${violation.help}\n    ${violation.helpUrl}\n${nodes}`;
    })
    .join('\n');
  // Compared as ids so the diff stays short; the message carries the details.
  expect(
    blocking.map((violation) => violation.id),
    `axe found serious or critical violations in ${view}:\n${report}`,
  ).toEqual([]);
}

/** A finished reply (Markdown) followed, on the next message, by the standard pending question form. */
async function openChatWithReplyAndQuestion(page: Page): Promise<void> {
  await page.goto('/');
  await useScript(page, {
    steps: [MARKDOWN_STEP, { text: ASKING_TEXT, toolCalls: [{ name: 'question', args: { questions: STANDARD_QUESTIONS } }] }],
    chunkSize: 200,
    chunkDelayMs: 5,
  });
  await newConversation(page);
  await send(page, 'Plan my weekend');
  await completeReply(page, 0);
  await send(page, 'Ask me first');
  await expect(questionForm(page)).toBeVisible();
}

test('start page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New conversation', exact: true })).toBeEnabled();
  await expectNoSeriousViolations(page, 'the start page');
});

test('a conversation with a finished Markdown reply', async ({ page }) => {
  await page.goto('/');
  await useScript(page, { steps: [MARKDOWN_STEP], chunkSize: 200, chunkDelayMs: 5 });
  await newConversation(page);
  await send(page, 'Plan my weekend');
  const reply = await completeReply(page, 0);
  await expect(reply.getByRole('table')).toBeVisible();
  await expect(reply.getByRole('list')).toHaveCount(2);
  await expectNoSeriousViolations(page, 'a chat with a finished Markdown reply');
});

test('a pending question form, first tab and with Other chosen', async ({ page }) => {
  await askQuestions(page);
  await expect(questionTab(page, 'Color')).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousViolations(page, 'the pending question form');

  await questionTab(page, PROJECT.header).click();
  await questionGroup(page, PROJECT).getByRole('radio', { name: 'Other', exact: true }).check();
  await otherAnswerBox(page).fill('Zed');
  await expectNoSeriousViolations(page, 'the question form with Other chosen');
});

test('the question form’s Review tab', async ({ page }) => {
  await askQuestions(page);
  await fillStandardAnswers(page);
  await questionTab(page, 'Review').click();
  await expect(questionForm(page).getByText('Your answers', { exact: true })).toBeVisible();
  await expectNoSeriousViolations(page, 'the Review tab');
});

test('the resolved question’s summary', async ({ page }) => {
  await askQuestions(page);
  await fillStandardAnswers(page);
  await submitButton(page).click();
  await expect(questionSummary(page)).toContainText('Answered');
  await completeReply(page, 1);
  await expectNoSeriousViolations(page, 'the resolved summary');
});

test('Settings with Scripted, then with OpenAI-compatible', async ({ page }) => {
  await page.goto('/#/settings');
  const provider = page.getByRole('combobox', { name: 'Provider', exact: true });
  await provider.selectOption({ label: 'Scripted' });
  await expect(page.getByRole('textbox', { name: 'Script', exact: true })).toBeVisible();
  await expectNoSeriousViolations(page, 'Settings (Scripted)');

  await provider.selectOption({ label: 'OpenAI-compatible' });
  await expect(page.getByRole('textbox', { name: 'Base URL', exact: true })).toBeVisible();
  await expectNoSeriousViolations(page, 'Settings (OpenAI-compatible)');
});

test('the chat at 360 px', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openChatWithReplyAndQuestion(page);
  await expect(messageBox(page)).toBeVisible();
  await expectNoSeriousViolations(page, 'the chat at 360 px');
});

test('the chat with a question form in dark mode', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openChatWithReplyAndQuestion(page);
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
  await expectNoSeriousViolations(page, 'the dark chat with a question form');
});

import { render, screen, within } from '@solidjs/testing-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuestionRequest } from '../../src/schema/messages/blocks';
import type { Question } from '../../src/schema/forms/question';
import type { QuestionClient } from '../../src/ui/question/QuestionForm';
import { QuestionForm } from '../../src/ui/question/QuestionForm';
import { NARROW_SCREEN_QUERY } from '../../src/ui/question/state/narrow-screen';
import { setLocale } from '../../src/ui/i18n/i18n';

const questions: Question[] = ['Budget', 'Pace', 'Food'].map((header) => ({
  header,
  question: `Which ${header.toLowerCase()}?`,
  options: [{ label: `${header} A` }, { label: `${header} B` }],
  multiple: false,
  custom: false,
}));

const block: QuestionRequest = { type: 'request', kind: 'question', requestId: 'call-1', toolCallId: 'call-1', payload: { questions: questions }, status: 'pending' };
const client: QuestionClient = { send: () => Promise.resolve({ saved: true }) as never };

/** jsdom has no matchMedia: answer the narrow-screen query as a phone held upright would. */
function emulateScreen(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow && query === NARROW_SCREEN_QUERY,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function renderForm() {
  render(() => <QuestionForm block={block} conversationId="c-1" messageId="m-1" client={client} />);
  return screen.getByRole('form', { name: 'Question from Parley' });
}

describe('the question form on a narrow screen', () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('steps through the questions with Previous and Next instead of tabs, then reaches Review', () => {
    emulateScreen(true);
    const form = renderForm();
    expect(within(form).queryByRole('tablist')).toBeNull();
    const steps = within(form).getByRole('group', { name: 'Question steps' });
    const previous = within(steps).getByRole('button', { name: 'Previous question' });
    const next = within(steps).getByRole('button', { name: 'Next question' });
    expect(steps).toHaveTextContent('1 of 3 Budget');
    expect(previous).toBeDisabled();
    expect(within(form).getByRole('group', { name: 'Which budget?' })).toBeVisible();

    next.click();
    expect(steps).toHaveTextContent('2 of 3 Pace');
    expect(within(form).getByRole('group', { name: 'Which pace?' })).toBeVisible();
    next.click();
    next.click();
    expect(steps).toHaveTextContent('Review');
    expect(next).toBeDisabled();
    expect(within(form).getByText('Your answers')).toBeVisible();
    previous.click();
    expect(steps).toHaveTextContent('3 of 3 Food');
  });

  it('marks answered questions, and moves on by itself after a single choice', () => {
    emulateScreen(true);
    const form = renderForm();
    const steps = within(form).getByRole('group', { name: 'Question steps' });
    within(form).getByRole('radio', { name: 'Budget B' }).click();
    expect(steps).toHaveTextContent('2 of 3 Pace');
    expect(steps.querySelectorAll('[data-answered="true"]')).toHaveLength(1);
    within(steps).getByRole('button', { name: 'Previous question' }).click();
    expect(steps).toHaveTextContent('1 of 3 Budget, Answered');
  });

  it('keeps the tabs, named by header, on a wide screen', () => {
    emulateScreen(false);
    const form = renderForm();
    expect(within(form).queryByRole('group', { name: 'Question steps' })).toBeNull();
    expect(within(form).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Budget', 'Pace', 'Food', 'Review']);
  });
});

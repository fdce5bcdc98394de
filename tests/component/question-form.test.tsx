import { cleanup, fireEvent, render, screen, within } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuestionRequest } from '../../src/schema/messages/blocks';
import { questionRequest, type QuestionOverrides } from './question-request';
import type { Command, CommandOf, CommandResult, CommandType } from '../../src/schema/commands';
import { WireError } from '../../src/schema/protocol';
import type { Question, QuestionAnswer } from '../../src/schema/forms/question';
import type { Message } from '../../src/schema/records';
import { QuestionForm, type QuestionClient } from '../../src/ui/question/QuestionForm';
import { QuestionReview } from '../../src/ui/question/QuestionReview';
import { setLocale } from '../../src/ui/i18n/i18n';
import { questionStrings } from '../../src/ui/i18n/chat/question-strings';
import { questionStringsZhCN } from '../../src/ui/i18n/chat/question-strings.zh-CN';

const budget: Question = {
  header: 'Budget',
  question: 'What is your budget?',
  options: [
    { label: 'Low', description: 'Under $100' },
    { label: 'High', description: 'Over $1000' },
  ],
  multiple: false,
  custom: true,
};
const features: Question = {
  header: 'Features',
  question: 'Which features do you need?',
  options: [{ label: 'Search' }, { label: 'Sync' }, { label: 'Export' }],
  multiple: true,
  custom: true,
};


function pendingBlock(overrides: QuestionOverrides = {}): QuestionRequest {
  return questionRequest([budget, features], overrides);
}

function messageWith(block: QuestionRequest): Message {
  return {
    id: 'message-1',
    conversationId: 'conversation-1',
    seq: 1,
    role: 'assistant',
    blocks: [{ type: 'text', text: 'Let me ask.' }, block],
    status: 'complete',
    createdAt: 1,
    updatedAt: 2,
  };
}

/** Resolves commands the way the worker would, recording every command it was sent. */
function createFakeClient(handler?: (command: Command) => unknown) {
  const sent: Command[] = [];
  const defaultHandler = (command: Command): unknown => {
    if (command.type === 'question.saveDraft') return { saved: true };
    if (isAnswer(command)) {
      return {
        message: messageWith(
          pendingBlock({ status: 'success', resolution: 'answered', answers: answersOf(command) as QuestionAnswer[], resolvedAt: Date.UTC(2026, 0, 1) }),
        ),
      };
    }
    if (isDismissal(command)) {
      return { message: messageWith(pendingBlock({ status: 'denied', resolution: 'dismissed', resolvedAt: 5 })) };
    }
    throw new Error(`unexpected ${command.type}`);
  };
  const client: QuestionClient = {
    send<T extends CommandType>(command: CommandOf<T>): Promise<CommandResult<T>> {
      sent.push(command as Command);
      return Promise.resolve().then(() => (handler ?? defaultHandler)(command as Command)) as Promise<CommandResult<T>>;
    },
  };
  const ofType = <T extends CommandType>(type: T) => sent.filter((command) => command.type === type) as unknown as CommandOf<T>[];
  /** The form's answers and its dismissals: each is a `request.resolve`. */
  const answered = () => sent.filter(isAnswer);
  const dismissed = () => sent.filter(isDismissal);
  return { client, sent, ofType, answered, dismissed };
}

function isAnswer(command: Command): command is CommandOf<'request.resolve'> {
  return command.type === 'request.resolve' && command.approved;
}

function isDismissal(command: Command): command is CommandOf<'request.resolve'> {
  return command.type === 'request.resolve' && !command.approved;
}

function answersOf(command: CommandOf<'request.resolve'>): unknown {
  return (command.params as { answers?: unknown }).answers;
}

function renderForm(block: QuestionRequest, client: QuestionClient) {
  return render(() => <QuestionForm block={block} conversationId="conversation-1" messageId="message-1" client={client} />);
}

/** Lets the fake client's promise settle and Solid update. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => setLocale('en'));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('QuestionForm while pending', () => {
  it('shows a tab per question plus Review, and the first question as a radio group with descriptions', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);

    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent?.trim())).toEqual(['Budget', 'Features', 'Review']);
    expect(screen.getByRole('tab', { name: 'Budget' })).toHaveAttribute('aria-selected', 'true');

    const group = screen.getByRole('group', { name: 'What is your budget?' });
    const low = within(group).getByRole('radio', { name: 'Low' });
    expect(low).toHaveAccessibleDescription('Under $100');
    expect(within(group).getByRole('radio', { name: 'High' })).toHaveAccessibleDescription('Over $1000');
    expect(within(group).getByRole('radio', { name: 'Other' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Which features do you need?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Other answer' })).not.toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeEnabled();
    expect(screen.getByText(/type a normal reply in the message box/)).toBeInTheDocument();
  });

  it('shows a multiple-choice question as checkboxes on its tab', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('tab', { name: 'Features' }));

    const group = screen.getByRole('group', { name: 'Which features do you need?' });
    expect(within(group).getAllByRole('checkbox').map((box) => box.getAttribute('value'))).toEqual(['Search', 'Sync', 'Export', '']);
    expect(within(group).queryByRole('radio')).not.toBeInTheDocument();
    expect(within(group).getByRole('checkbox', { name: 'Other' })).toBeInTheDocument();
  });

  it('announces the new question in a polite live region', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock({ questions: [budget] }), client);
    const announcer = screen.getAllByRole('status').find((element) => element.textContent?.includes('Parley asks'));
    expect(announcer).toHaveTextContent('Parley asks: What is your budget?');
    expect(announcer).toHaveAttribute('aria-live', 'polite');
  });

  it('marks an answered tab with a check that is not part of its name', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    const tab = screen.getByRole('tab', { name: 'Budget' });
    expect(tab).toHaveTextContent('✓');
    expect(tab).toHaveAccessibleDescription('Answered');
    expect(screen.getByRole('tab', { name: 'Features' })).not.toHaveTextContent('✓');
  });
});

describe('QuestionForm keyboard', () => {
  it('picks with digits, advances after a single choice, toggles multiple choices, and submits with Enter', async () => {
    const { client, answered } = createFakeClient();
    renderForm(pendingBlock(), client);

    fireEvent.keyDown(screen.getByRole('tab', { name: 'Budget' }), { key: '2' });
    expect(screen.getByRole('tab', { name: 'Features' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(screen.getByRole('tab', { name: 'Budget' }));
    expect(screen.getByRole('radio', { name: 'High' })).toBeChecked();
    fireEvent.click(screen.getByRole('tab', { name: 'Features' }));

    const search = screen.getByRole('checkbox', { name: 'Search' });
    fireEvent.keyDown(search, { key: '1' });
    fireEvent.keyDown(search, { key: '3' });
    fireEvent.keyDown(search, { key: '1' });
    expect(screen.getByRole('checkbox', { name: 'Search' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Export' })).toBeChecked();
    // Focus follows the last digit, so a screen reader hears what changed.
    expect(screen.getByRole('checkbox', { name: 'Search' })).toHaveFocus();
    // Multiple choice stays on its tab.
    expect(screen.getByRole('tab', { name: 'Features' })).toHaveAttribute('aria-selected', 'true');

    fireEvent.keyDown(screen.getByRole('checkbox', { name: 'Export' }), { key: 'Enter' });
    await settle();
    expect(answered()).toEqual([
      {
        type: 'request.resolve',
        conversationId: 'conversation-1',
        messageId: 'message-1',
        requestId: 'call-1',
        approved: true,
        params: { answers: [{ selected: ['High'] }, { selected: ['Export'] }] },
      },
    ]);
  });

  it('does not auto-submit a single single-choice question; Enter does', async () => {
    const { client, answered } = createFakeClient();
    renderForm(pendingBlock({ questions: [budget] }), client);

    // One question: no tabs, no Review.
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Low' }), { key: '1' });
    fireEvent.click(screen.getByRole('radio', { name: 'High' }));
    await settle();
    expect(answered()).toHaveLength(0);
    expect(screen.getByRole('radio', { name: 'High' })).toBeChecked();

    fireEvent.keyDown(screen.getByRole('radio', { name: 'High' }), { key: 'Enter' });
    await settle();
    expect(answered().map((command) => answersOf(command))).toEqual([[{ selected: ['High'] }]]);
    expect(screen.getByText('Answered')).toBeInTheDocument();
    expect(screen.getByText('Budget: High')).toBeInTheDocument();
  });

  it('dismisses with Esc and shows the summary', async () => {
    const { client, dismissed } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Low' }), { key: 'Escape' });
    await settle();
    expect(dismissed()).toEqual([
      { type: 'request.resolve', conversationId: 'conversation-1', messageId: 'message-1', requestId: 'call-1', approved: false },
    ]);
    expect(screen.getByText('Dismissed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit answers' })).not.toBeInTheDocument();
  });

  it('Esc in the Other text only leaves it: dismissing cannot be undone', async () => {
    const { client, dismissed } = createFakeClient();
    renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    const text = screen.getByRole('textbox', { name: 'Other answer' });
    fireEvent.input(text, { target: { value: 'Medium' } });
    text.focus();
    fireEvent.keyDown(text, { key: 'Escape' });
    await settle();
    expect(dismissed()).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Other' }));
    expect(screen.getByRole('textbox', { name: 'Other answer' })).toHaveValue('Medium');
  });

  it('leaves Enter on a button, Shift+Enter in the Other text and IME composition alone', async () => {
    const { client, answered, dismissed } = createFakeClient();
    renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    const text = screen.getByRole('textbox', { name: 'Other answer' });
    fireEvent.input(text, { target: { value: 'Medium' } });

    fireEvent.keyDown(screen.getByRole('button', { name: 'Dismiss' }), { key: 'Enter' });
    fireEvent.keyDown(text, { key: 'Enter', shiftKey: true });
    fireEvent.keyDown(text, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(text, { key: '1' });
    await settle();
    expect(answered()).toHaveLength(0);
    expect(dismissed()).toHaveLength(0);
    expect(screen.getByRole('radio', { name: 'Other' })).toBeChecked();

    fireEvent.keyDown(text, { key: 'Enter' });
    await settle();
    expect(answered().map((command) => answersOf(command))).toEqual([[{ selected: [], other: 'Medium' }]]);
  });

  it('moves between tabs with the arrow keys on the tab list', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Budget' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Features' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Features' })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Features' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Review' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Budget' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Budget' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true');
  });

  it('does not jump tabs when arrow keys move through the radio group', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);
    const low = screen.getByRole('radio', { name: 'Low' });
    fireEvent.keyDown(low, { key: 'ArrowDown' });
    fireEvent.click(screen.getByRole('radio', { name: 'High' }));
    expect(screen.getByRole('tab', { name: 'Budget' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('radio', { name: 'High' })).toBeChecked();
  });
});

describe('QuestionForm answers', () => {
  it('reveals the Other textbox, focuses it and sends the trimmed text with the chosen options', async () => {
    const { client, answered } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('tab', { name: 'Features' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sync' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Other' }));
    const text = screen.getByRole('textbox', { name: 'Other answer' });
    expect(text).toHaveFocus();
    fireEvent.input(text, { target: { value: '  Offline mode  ' } });

    // Budget is unanswered: Submit first shows Review with what is missing, and skipping is a second, explicit step.
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    expect(answered()).toHaveLength(0);
    expect(screen.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('1 not answered yet: Budget.');
    // One way on from here: "Submit anyway" takes the place of "Submit answers", which would only ask again.
    expect(screen.queryByRole('button', { name: 'Submit answers' })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Submit/ })).toHaveLength(1);
    // Back on a question, Submit is "Submit answers" again; on Review after it, "Submit anyway".
    fireEvent.click(screen.getByRole('tab', { name: 'Features' }));
    expect(screen.queryByRole('button', { name: 'Submit anyway' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    expect(answered()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Submit anyway' }));
    await settle();
    expect(answered().map((command) => answersOf(command))).toEqual([
      [{ selected: [] }, { selected: ['Sync'], other: 'Offline mode' }],
    ]);
    expect(screen.getByText('Budget: Skipped')).toBeInTheDocument();
    expect(screen.getByText('Features: Sync, "Offline mode"')).toBeInTheDocument();
  });

  it('lists every answer or "Not answered yet" (not "Skipped": the user has not chosen to skip) on the Review tab and goes back to change one', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('radio', { name: 'High' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Review' }));

    const review = screen.getByRole('tabpanel', { name: 'Review' });
    expect(within(review).getByText('Budget: High')).toBeInTheDocument();
    expect(within(review).getByText('Features: Not answered yet')).toBeInTheDocument();
    expect(within(review).queryByText(/Skipped/)).not.toBeInTheDocument();

    fireEvent.click(within(review).getByRole('button', { name: 'Change Features' }));
    expect(screen.getByRole('tab', { name: 'Features' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('checkbox', { name: 'Search' })).toHaveFocus();
  });

  it('refuses an all-empty submit with an alert instead of sending it', async () => {
    const { client, answered } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    expect(answered()).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an answer first, or dismiss the question.');
  });

  it('clears one answer so the question can be skipped again', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear answer' }));
    expect(screen.getByRole('radio', { name: 'Low' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Low' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Clear answer' })).not.toBeInTheDocument();
  });
});

describe('QuestionForm drafts', () => {
  it('restores selections, half-typed Other text and the active tab from block.draft', () => {
    const { client } = createFakeClient();
    renderForm(
      pendingBlock({
        draft: {
          answers: [{ selected: ['Low'] }, { selected: ['Sync'], other: 'half typ' }],
          otherChosen: [false, true],
          activeTab: 1,
        },
      }),
      client,
    );
    expect(screen.getByRole('tab', { name: 'Features' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('checkbox', { name: 'Sync' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Other' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Other answer' })).toHaveValue('half typ');
    fireEvent.click(screen.getByRole('tab', { name: 'Budget' }));
    expect(screen.getByRole('radio', { name: 'Low' })).toBeChecked();
  });

  it('saves one debounced draft after a burst of changes', () => {
    vi.useFakeTimers();
    const { client, ofType } = createFakeClient();
    renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    const text = screen.getByRole('textbox', { name: 'Other answer' });
    fireEvent.input(text, { target: { value: 'Med' } });
    vi.advanceTimersByTime(300);
    fireEvent.input(text, { target: { value: 'Medium ' } });
    vi.advanceTimersByTime(399);
    expect(ofType('question.saveDraft')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(ofType('question.saveDraft')).toEqual([
      {
        type: 'question.saveDraft',
        conversationId: 'conversation-1',
        messageId: 'message-1',
        toolCallId: 'call-1',
        draft: { answers: [{ selected: [], other: 'Medium ' }], otherChosen: [true], activeTab: 0 },
      },
    ]);
  });

  it('saves a tab change and flushes the unsent draft on unmount', () => {
    vi.useFakeTimers();
    const { client, ofType } = createFakeClient();
    const { unmount } = renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('tab', { name: 'Features' }));
    expect(ofType('question.saveDraft')).toHaveLength(0);
    unmount();
    expect(ofType('question.saveDraft').map((command) => command.draft.activeTab)).toEqual([1]);
    vi.advanceTimersByTime(1000);
    expect(ofType('question.saveDraft')).toHaveLength(1);
  });

  it('sends no draft on mount and none after the question was answered', async () => {
    const { client, ofType } = createFakeClient();
    const { unmount } = renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ofType('question.saveDraft')).toHaveLength(0);
  });
});

describe('QuestionForm submitting', () => {
  it('disables the buttons while a command is in flight and sends it once', async () => {
    let release: (value: unknown) => void = () => undefined;
    const { client, answered, dismissed } = createFakeClient((command) =>
      isAnswer(command) ? new Promise((resolve) => (release = resolve)) : { saved: true },
    );
    renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeDisabled();
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Low' }), { key: 'Enter' });
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Low' }), { key: 'Escape' });
    expect(answered()).toHaveLength(1);
    expect(dismissed()).toHaveLength(0);

    release({ message: messageWith(pendingBlock({ questions: [budget], status: 'success', resolution: 'answered', answers: [{ selected: ['Low'] }] })) });
    await settle();
    expect(screen.getByText('Budget: Low')).toBeInTheDocument();
  });

  it('shows "Already answered in another tab" with the recorded outcome', async () => {
    const { client } = createFakeClient((command) => {
      if (!isAnswer(command)) return { saved: true };
      throw new WireError({
        code: 'already_resolved',
        message: 'This question was already resolved.',
        outcome: { resolution: 'answered', answers: [{ selected: ['High'] }, { selected: ['Search', 'Export'] }], resolvedAt: 10 },
      });
    });
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sync' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();

    const notice = screen.getByText('Already answered in another tab');
    expect(notice).toHaveAttribute('role', 'status');
    expect(screen.getByText('Budget: High')).toBeInTheDocument();
    expect(screen.getByText('Features: Search, Export')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit answers' })).not.toBeInTheDocument();
  });

  it('shows an invalid_answer message as an alert and stays usable', async () => {
    let calls = 0;
    const { client, answered } = createFakeClient((command) => {
      if (!isAnswer(command)) return { saved: true };
      calls += 1;
      if (calls === 1) {
        throw new WireError({ code: 'invalid_answer', reason: 'answer_unknown_option', params: { question: 'Budget', option: 'Mid' }, message: '"Mid" is not an option of "Budget".', field: 'answers[0]' });
      }
      throw new Error('The worker stopped answering');
    });
    renderForm(pendingBlock({ questions: [budget] }), client);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent('These answers were not accepted: “Mid” is not an option of “Budget”.');
    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeEnabled();

    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    // Not a worker error: said as unexpected, with what went wrong kept under Details.
    expect(screen.getByRole('alert')).toHaveTextContent('Could not send: Something unexpected went wrong.');
    expect(screen.getByText('The worker stopped answering')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Low' })).toBeChecked();
    expect(answered()).toHaveLength(2);
  });
});

describe('QuestionForm once resolved', () => {
  const resolvedAt = Date.UTC(2026, 0, 2, 9, 30);

  it.each([
    ['dismissed', 'denied', 'Dismissed'],
    ['chat', 'success', 'Answered in chat'],
    ['stopped', 'denied', 'Stopped'],
  ] as const)('shows "%s" as "%s"', (resolution, status, text) => {
    const { client } = createFakeClient();
    renderForm(pendingBlock({ status, resolution, resolvedAt }), client);
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByText('Budget: Skipped')).not.toBeInTheDocument();
    expect(document.querySelector('time')).toHaveAttribute('datetime', new Date(resolvedAt).toISOString());
  });

  it('lists answers per question, joining choices and quoting Other text', () => {
    const { client } = createFakeClient();
    renderForm(
      pendingBlock({
        status: 'success',
        resolution: 'answered',
        resolvedAt,
        answers: [{ selected: [] }, { selected: ['Search', 'Export'], other: 'Offline' }],
      }),
      client,
    );
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['Budget: Skipped', 'Features: Search, Export, "Offline"']);
  });

  it('quotes typed text that holds quotes itself with the other kind of quotes', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock({ status: 'success', resolution: 'answered', resolvedAt, answers: [{ selected: ['High'] }, { selected: [], other: 'My dog "Rex"' }] }), client);
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['Budget: High', 'Features: “My dog "Rex"”']);
  });

  it('replaces the form with the summary when another tab resolves the block', () => {
    const { client, ofType } = createFakeClient();
    const [block, setBlock] = createSignal(pendingBlock());
    render(() => <QuestionForm block={block()} conversationId="conversation-1" messageId="message-1" client={client} />);
    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeInTheDocument();

    setBlock(pendingBlock({ status: 'success', resolution: 'chat', answerMessageId: 'message-2', resolvedAt }));
    expect(screen.queryByRole('button', { name: 'Submit answers' })).not.toBeInTheDocument();
    expect(screen.getByText('Answered in chat')).toBeInTheDocument();
    expect(ofType('question.saveDraft')).toHaveLength(0);
  });

  it('says when another tab\'s answer won, and keeps what this tab filled in, marked as not used', () => {
    const { client } = createFakeClient();
    const [block, setBlock] = createSignal(pendingBlock());
    render(() => <QuestionForm block={block()} conversationId="conversation-1" messageId="message-1" client={client} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sync' }));

    setBlock(pendingBlock({ status: 'success', resolution: 'answered', answers: [{ selected: ['High'] }, { selected: ['Search'] }], resolvedAt }));
    const summary = screen.getByRole('region', { name: 'Parley’s questions' });
    expect(within(summary).getByText('Answered in another tab')).toBeInTheDocument();
    expect(within(summary).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Budget: High', 'Features: Search']);
    expect(within(summary).getByText('Your answers in this tab were not used: Budget: Low; Features: Sync')).toBeInTheDocument();
  });

  it('says so in Simplified Chinese too, and says it for a dismissal', async () => {
    await setLocale('zh-CN');
    const { client } = createFakeClient();
    const [block, setBlock] = createSignal(pendingBlock());
    render(() => <QuestionForm block={block()} conversationId="conversation-1" messageId="message-1" client={client} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    setBlock(pendingBlock({ status: 'denied', resolution: 'dismissed', resolvedAt }));
    expect(screen.getByText('已在另一个标签页中忽略')).toBeInTheDocument();
    expect(screen.getByText('你在此标签页填写的回答未被使用：Budget：Low')).toBeInTheDocument();
  });

  it('does not claim another tab for a question that was already answered when it was shown', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock({ status: 'success', resolution: 'answered', answers: [{ selected: ['High'] }, { selected: [] }], resolvedAt }), client);
    expect(screen.getByText('Answered')).toBeInTheDocument();
    expect(screen.queryByText(/another tab/)).not.toBeInTheDocument();
  });

  it('keeps the Other textbox and its focus when the worker echoes the block back', () => {
    const { client } = createFakeClient();
    const [block, setBlock] = createSignal(pendingBlock({ questions: [budget] }));
    render(() => <QuestionForm block={block()} conversationId="conversation-1" messageId="message-1" client={client} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    const text = screen.getByRole('textbox', { name: 'Other answer' });
    fireEvent.input(text, { target: { value: 'Med' } });
    setBlock(structuredClone(pendingBlock({ questions: [budget], draft: { answers: [{ selected: [], other: 'Med' }] } })));
    expect(screen.getByRole('textbox', { name: 'Other answer' })).toBe(text);
    expect(text).toHaveFocus();
  });

  it('keeps local edits when the worker echoes a saved draft back', () => {
    const { client } = createFakeClient();
    const [block, setBlock] = createSignal(pendingBlock());
    render(() => <QuestionForm block={block()} conversationId="conversation-1" messageId="message-1" client={client} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    setBlock(pendingBlock({ draft: { answers: [{ selected: [] }, { selected: [] }] } }));
    fireEvent.click(screen.getByRole('tab', { name: 'Budget' }));
    expect(screen.getByRole('radio', { name: 'Low' })).toBeChecked();
  });
});

describe('QuestionForm never loses or fakes an answer silently', () => {
  it('asks before Dismiss (or Esc) throws away a half-filled form, and Keep editing keeps it', async () => {
    const { client, dismissed } = createFakeClient();
    renderForm(pendingBlock(), client);
    fireEvent.click(screen.getByRole('radio', { name: 'High' })); // moves on to Features
    fireEvent.keyDown(screen.getByRole('checkbox', { name: 'Sync' }), { key: 'Escape' });
    await settle();
    expect(dismissed()).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent('discard the answers you filled in?');
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('radio', { name: 'High', hidden: true })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard and dismiss' }));
    await settle();
    expect(dismissed()).toHaveLength(1);
  });

  it('answers a free-text-only question in one text field', async () => {
    const { client, answered } = createFakeClient();
    const name: Question = { header: 'Name', question: 'What should the project be called?', options: [], multiple: false, custom: true };
    renderForm(pendingBlock({ questions: [name] }), client);
    const group = screen.getByRole('group', { name: 'What should the project be called?' });
    expect(within(group).queryByRole('radio')).not.toBeInTheDocument();
    fireEvent.input(within(group).getByRole('textbox', { name: 'Your answer' }), { target: { value: 'Parley' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await settle();
    expect(answered().map((command) => answersOf(command))).toEqual([[{ selected: [], other: 'Parley' }]]);
  });

  it('shows what was filled in but not sent when the user replied in chat instead', () => {
    const { client } = createFakeClient();
    renderForm(pendingBlock({ status: 'success', resolution: 'chat', resolvedAt: 5, draft: { answers: [{ selected: ['High'] }, { selected: [] }] } }), client);
    expect(screen.getByText('Not sent (you replied in chat): Budget: High')).toBeInTheDocument();
  });
});

describe('question strings', () => {
  it('has every English key in Simplified Chinese, prefixed question.', () => {
    expect(Object.keys(questionStringsZhCN).sort()).toEqual(Object.keys(questionStrings.en).sort());
    expect(Object.keys(questionStrings.en).every((key) => key.startsWith('question.'))).toBe(true);
  });

  it('renders the form in Simplified Chinese', async () => {
    await setLocale('zh-CN');
    const { client } = createFakeClient();
    renderForm(pendingBlock(), client);
    expect(screen.getByRole('button', { name: '提交答案' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '检查' })).toBeInTheDocument();
  });

  it('lists the unanswered questions as the UI language lists things (“A and B”; “A和B”), not with an English comma', async () => {
    const review = (headers: string[]) =>
      render(() => <QuestionReview questions={[]} answers={[]} unansweredHeaders={headers} noticeRef={() => {}} onChange={() => {}} />);
    review(['Toppings', 'Project']);
    expect(screen.getByRole('alert')).toHaveTextContent('2 not answered yet: Toppings and Project. Answer them, or submit anyway to skip them.');
    cleanup();
    await setLocale('zh-CN');
    review(['配料', '项目', '颜色']);
    expect(screen.getByRole('alert')).toHaveTextContent(/^还有 3 个未回答：配料、项目和颜色。/);
  });
});

import { render, screen, within } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Block } from '../../src/schema/blocks';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/channel';
import { MESSAGE_WINDOW, MessageList } from '../../src/ui/components/MessageList';
import { createUiStore } from '../../src/ui/store';

const fakeClient: WorkerClient = {
  send: vi.fn(() => new Promise<never>(() => {})) as unknown as WorkerClient['send'],
  onEvent: () => () => {},
};

function message(id: string, seq: number, role: Message['role'], blocks: Block[], extra: Partial<Message> = {}): Message {
  return { id, conversationId: 'c1', seq, role, blocks, status: 'complete', createdAt: seq, updatedAt: seq, ...extra };
}

/** The list fed from a real UI store, as the app does, so upserts go through the reducer. */
function renderFromStore(messages: Message[]) {
  const { state, dispatch } = createUiStore();
  dispatch({
    type: 'conversation-opened',
    conversation: { id: 'c1', title: 'Chat', createdAt: 0, updatedAt: 0, runState: 'running', completedSteps: 0 },
    messages,
  });
  render(() => <MessageList messages={state.messages.c1 ?? []} client={fakeClient} />);
  return dispatch;
}

describe('MessageList', () => {
  it('is a log named "Messages" with one article per message, named You or Parley', () => {
    renderFromStore([
      message('u1', 0, 'user', [{ type: 'text', text: 'Plan my weekend' }]),
      message('a1', 1, 'assistant', [{ type: 'text', text: 'Sure!' }]),
    ]);
    const log = screen.getByRole('log', { name: 'Messages' });
    const articles = within(log).getAllByRole('article');
    expect(articles.map((article) => article.getAttribute('aria-label'))).toEqual(['You', 'Parley']);
    expect(articles[0]).toHaveTextContent('Plan my weekend');
    expect(articles[0]).toHaveAttribute('data-status', 'complete');
  });

  it('grows streamed text in place and shows each status', () => {
    const dispatch = renderFromStore([message('a1', 0, 'assistant', [{ type: 'text', text: 'Hel' }], { status: 'streaming' })]);
    const article = screen.getByRole('article', { name: 'Parley' });
    expect(article).toHaveTextContent('Hel');
    expect(article).toHaveAttribute('data-status', 'streaming');

    dispatch({ type: 'message-upserted', message: message('a1', 0, 'assistant', [{ type: 'text', text: 'Hello, **world**' }], { status: 'streaming' }) });
    expect(screen.getByRole('article', { name: 'Parley' })).toBe(article);
    expect(article).toHaveTextContent('Hello, world');
    expect(article.querySelector('strong')).toHaveTextContent('world');

    dispatch({ type: 'message-upserted', message: message('a1', 0, 'assistant', [{ type: 'text', text: 'Hello, **world** and more' }], { status: 'interrupted' }) });
    expect(article).toHaveAttribute('data-status', 'interrupted');
    expect(within(article).getByText('Interrupted')).toBeInTheDocument();

    dispatch({ type: 'message-upserted', message: message('a1', 0, 'assistant', [{ type: 'text', text: 'Hello' }], { status: 'stopped' }) });
    expect(article).toHaveAttribute('data-status', 'stopped');
    expect(within(article).queryByText('Interrupted')).toBeNull();
    expect(within(article).getByText('Stopped')).toBeInTheDocument();
  });

  it('renders reasoning collapsed, tool calls as cards with visible errors, error blocks as alerts, and usage', () => {
    renderFromStore([
      message(
        'a1',
        0,
        'assistant',
        [
          { type: 'reasoning', text: 'Thinking it over' },
          { type: 'tool_call', toolCallId: 't1', toolName: 'lookup', args: { city: 'Oslo' }, status: 'error', result: 'City not found' },
          { type: 'tool_call', toolCallId: 't2', toolName: 'clock', args: {}, status: 'success', result: '12:00' },
          { type: 'error', code: 'provider_error', message: 'The model refused' },
        ],
        { status: 'error', usage: { inputTokens: 12, outputTokens: 34 } },
      ),
    ]);
    const article = screen.getByRole('article', { name: 'Parley' });
    const reasoning = article.querySelector('details.reasoning') as HTMLDetailsElement;
    expect(reasoning.open).toBe(false);
    expect(within(reasoning).getByText('Reasoning')).toBeInTheDocument();

    expect(within(article).getByText('Tool: lookup')).toBeInTheDocument();
    expect(within(article).getByText('City not found')).toBeVisible();
    expect(within(article).getAllByText('Failed')).toHaveLength(1);
    expect(within(article).getByText('Tool: clock')).toBeInTheDocument();
    expect(within(article).getByText('Done')).toBeInTheDocument();

    expect(within(article).getByRole('alert')).toHaveTextContent('The model refused');
    expect(within(article).getByText('12 tokens in · 34 tokens out')).toBeInTheDocument();
  });

  it('renders a question request as the inline question form', () => {
    renderFromStore([
      message('a1', 0, 'assistant', [
        {
          type: 'question_request',
          toolCallId: 'q1',
          status: 'pending',
          questions: [
            {
              header: 'Mood',
              question: 'What kind of weekend?',
              options: [{ label: 'Cozy' }, { label: 'Busy' }],
              multiple: false,
              custom: true,
            },
          ],
        },
      ]),
    ]);
    const article = screen.getByRole('article', { name: 'Parley' });
    expect(within(article).getByRole('group', { name: 'What kind of weekend?' })).toBeInTheDocument();
    expect(within(article).getByRole('radio', { name: 'Cozy' })).toBeInTheDocument();
  });

  it('renders a bounded number of messages however long the conversation, and shows earlier ones on request', () => {
    const many = Array.from({ length: 5000 }, (_, index) => message(`m${index}`, index, index % 2 ? 'assistant' : 'user', [{ type: 'text', text: `Message ${index}` }]));
    renderFromStore(many);
    const log = screen.getByRole('log', { name: 'Messages' });
    expect(within(log).getAllByRole('article')).toHaveLength(MESSAGE_WINDOW);
    expect(within(log).getAllByRole('article').at(-1)).toHaveTextContent('Message 4999');
    within(log).getByRole('button', { name: `Show earlier messages (${5000 - MESSAGE_WINDOW})` }).click();
    expect(within(log).getAllByRole('article')).toHaveLength(2 * MESSAGE_WINDOW);
  });

  it('says "Opening…" until the messages were read, not "No messages yet"', () => {
    render(() => <MessageList messages={undefined} client={fakeClient} />);
    expect(screen.getByText('Opening conversation…')).toBeInTheDocument();
    expect(screen.queryByText(/No messages yet/)).toBeNull();
  });
});

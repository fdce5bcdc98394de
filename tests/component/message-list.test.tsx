import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Block } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/state/channel';
import { MessageList } from '../../src/ui/messages/MessageList';
import { MAX_RENDERED_ROWS } from '../../src/ui/messages/virtual-window';
import { createUiStore } from '../../src/ui/state/store';

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

  it('grows streamed text in place and shows each status', async () => {
    const dispatch = renderFromStore([message('a1', 0, 'assistant', [{ type: 'text', text: 'Hel' }], { status: 'streaming' })]);
    const article = screen.getByRole('article', { name: 'Parley' });
    expect(article).toHaveTextContent('Hel');
    expect(article).toHaveAttribute('data-status', 'streaming');

    dispatch({ type: 'message-upserted', message: message('a1', 0, 'assistant', [{ type: 'text', text: 'Hello, **world**' }], { status: 'streaming' }) });
    expect(screen.getByRole('article', { name: 'Parley' })).toBe(article);
    // The Markdown renderer loads with the first reply shown (plain text until then).
    await waitFor(() => expect(article.querySelector('strong')).toHaveTextContent('world'));
    expect(article).toHaveTextContent('Hello, world');

    dispatch({ type: 'message-upserted', message: message('a1', 0, 'assistant', [{ type: 'text', text: 'Hello, **world** and more' }], { status: 'interrupted' }) });
    expect(article).toHaveAttribute('data-status', 'interrupted');
    expect(within(article).getByText('Interrupted')).toBeInTheDocument();

    dispatch({ type: 'message-upserted', message: message('a1', 0, 'assistant', [{ type: 'text', text: 'Hello' }], { status: 'stopped' }) });
    expect(article).toHaveAttribute('data-status', 'stopped');
    expect(within(article).queryByText('Interrupted')).toBeNull();
    expect(within(article).getByText('Stopped')).toBeInTheDocument();
  });

  it('renders reasoning collapsed, tool calls as cards with visible errors, error blocks as alerts, and usage', async () => {
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

    // A tool call's card loads its code when one is shown.
    // The cards' code loads with the first card shown (until then each call shows its name, as QueuedToolCall).
    expect(await within(article).findByText('City not found')).toBeVisible();
    expect(within(article).getByText('Tool: lookup')).toBeInTheDocument();
    expect(within(article).getAllByText('Failed')).toHaveLength(1);
    expect(within(article).getByText('Tool: clock')).toBeInTheDocument();
    expect(within(article).getByText('Done')).toBeInTheDocument();

    expect(within(article).getByRole('alert')).toHaveTextContent('The model refused');
    expect(within(article).getByText('12 tokens in · 34 tokens out')).toBeInTheDocument();
  });

  it('renders a question request as the inline question form', async () => {
    renderFromStore([
      message('a1', 0, 'assistant', [
        {
          type: 'request',
          kind: 'question',
          requestId: 'q1',
          toolCallId: 'q1',
          status: 'pending',
          payload: {
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
        },
      ]),
    ]);
    const article = screen.getByRole('article', { name: 'Parley' });
    expect(await within(article).findByRole('group', { name: 'What kind of weekend?' })).toBeInTheDocument();
    expect(within(article).getByRole('radio', { name: 'Cozy' })).toBeInTheDocument();
  });

  it('opens a conversation of 10,000 messages with a bounded number of message elements, the newest last', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => message(`m${index}`, index, index % 2 ? 'assistant' : 'user', [{ type: 'text', text: `Message ${index}` }]));
    renderFromStore(many);
    const log = screen.getByRole('log', { name: 'Messages' });
    const articles = within(log).getAllByRole('article');
    expect(articles.length).toBeGreaterThan(0);
    expect(articles.length).toBeLessThanOrEqual(MAX_RENDERED_ROWS);
    expect(articles.at(-1)).toHaveTextContent('Message 9999');
    expect(log.querySelectorAll('*').length).toBeLessThan(MAX_RENDERED_ROWS * 12);
  }, 30_000);

  it('shows earlier stored messages on request, page by page, and counts what is left', async () => {
    const stored = Array.from({ length: 250 }, (_, index) => message(`m${index}`, index, index % 2 ? 'assistant' : 'user', [{ type: 'text', text: `Message ${index}` }]));
    const { state, dispatch } = createUiStore();
    dispatch({ type: 'conversation-opened', conversation: { id: 'c1', title: 'Chat', createdAt: 0, updatedAt: 0, runState: 'idle', completedSteps: 0 }, messages: stored.slice(200), earlier: 200 });
    const loadEarlier = vi.fn(async () => {
      const first = state.messages.c1![0]!.seq;
      const page = stored.slice(Math.max(0, first - 100), first);
      dispatch({ type: 'message-page-loaded', conversationId: 'c1', messages: page, earlier: page[0]!.seq });
    });
    render(() => <MessageList messages={state.messages.c1} earlier={state.earlierMessages.c1} loadEarlier={loadEarlier} client={fakeClient} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    within(log).getByRole('button', { name: 'Show earlier messages (200)' }).click();
    await within(log).findByRole('button', { name: 'Show earlier messages (100)' });
    within(log).getByRole('button', { name: 'Show earlier messages (100)' }).click();
    await waitFor(() => expect(within(log).queryByRole('button', { name: /Show earlier messages/ })).toBeNull());
    expect(state.messages.c1!.map((item) => item.seq)).toEqual(stored.map((item) => item.seq));
    expect(within(log).getAllByRole('article').length).toBeLessThanOrEqual(MAX_RENDERED_ROWS);
  });

  it('offers "Jump to latest" once the user scrolled up, and follows the bottom again after it', async () => {
    const many = Array.from({ length: 500 }, (_, index) => message(`m${index}`, index, 'user', [{ type: 'text', text: `Message ${index}` }]));
    renderFromStore(many);
    const log = screen.getByRole('log', { name: 'Messages' });
    let position = 0;
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => 500 * 120 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => 800 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, get: () => position, set: (value: number) => (position = value) });
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull();
    // The reader is at the end, then scrolls up to the top: only a scroll up leaves the latest.
    position = 500 * 120 - 800;
    log.dispatchEvent(new Event('scroll'));
    position = 0;
    log.dispatchEvent(new Event('scroll'));
    const jump = await screen.findByRole('button', { name: 'Jump to latest' });
    expect(within(log).getAllByRole('article')[0]).toHaveTextContent('Message 0');
    jump.click();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Jump to latest' })).toBeNull());
    expect(within(log).getAllByRole('article').at(-1)).toHaveTextContent('Message 499');
    expect(position).toBe(500 * 120);
  });

  it('finds text in stored messages it does not show and brings each match into view', async () => {
    const many = Array.from({ length: 3000 }, (_, index) => message(`m${index}`, index, 'assistant', [{ type: 'text', text: index % 1000 === 7 ? `Needle ${index}` : `Hay ${index}` }]));
    renderFromStore(many);
    const log = screen.getByRole('log', { name: 'Messages' });
    expect(within(log).queryByText(/Needle/)).toBeNull();
    screen.getByRole('button', { name: 'Find in conversation' }).click();
    const box = await screen.findByRole('searchbox', { name: 'Find in conversation' });
    expect(box).toHaveFocus();
    fireEvent.input(box, { target: { value: 'needle' } });
    await screen.findByText('3 of 3');
    await waitFor(() => expect(within(log).getByText('Needle 2007')).toBeInTheDocument());
    screen.getByRole('button', { name: 'Older match' }).click();
    await screen.findByText('2 of 3');
    await waitFor(() => expect(within(log).getByText('Needle 1007')).toBeInTheDocument());
    expect(within(log).getByText('Needle 1007').closest('.virtual-row')).toHaveClass('search-current');
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('searchbox')).toBeNull());
  });

  it('says "Opening…" until the messages were read, not "No messages yet"', () => {
    render(() => <MessageList messages={undefined} client={fakeClient} />);
    expect(screen.getByText('Opening conversation…')).toBeInTheDocument();
    expect(screen.queryByText(/No messages yet/)).toBeNull();
  });
});

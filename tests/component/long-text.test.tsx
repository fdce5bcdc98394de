import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/state/channel';
import { LongText, RENDER_LIMIT, TEXT_SLICE, textSlices } from '../../src/ui/messages/LongText';
import { MessageView } from '../../src/ui/messages/MessageView';
import { ToolCallCard } from '../../src/ui/requests/ToolCallCard';

// Every view of a message's text is cut at RENDER_LIMIT (a 5 MB message froze the page for 50 s, a 100 MB one crashed
// the tab): the user's own text, reasoning, a reply shown plain while the Markdown code loads, a tool's arguments and
// result. "Show all" adds the rest in slices.

const client = { send: () => new Promise<never>(() => {}), onEvent: () => () => {} } as unknown as WorkerClient;
const LONG = `${'a line of text\n'.repeat(20_000)}the end`;

function message(role: Message['role'], blocks: Block[]): Message {
  return { id: 'm1', conversationId: 'c1', seq: 1, role, blocks, status: 'complete', createdAt: 1, updatedAt: 1 };
}

function shownText(element: Element): number {
  return element.textContent!.length;
}

describe('Long text is cut with "Show all"', () => {
  it('in the user\'s own message', async () => {
    render(() => <MessageView message={message('user', [{ type: 'text', text: LONG }])} client={client} />);
    const article = screen.getByRole('article', { name: 'You' });
    await waitFor(() => expect(shownText(article.querySelector('.message-text')!)).toBe(RENDER_LIMIT));
    expect(screen.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  });

  it('in reasoning', async () => {
    render(() => <MessageView message={message('assistant', [{ type: 'reasoning', text: LONG }])} client={client} />);
    await waitFor(() => expect(shownText(document.querySelector('.reasoning-text')!)).toBe(RENDER_LIMIT));
    expect(screen.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  });

  it('in a reply shown as plain text while the Markdown code loads', () => {
    render(() => <MessageView message={message('assistant', [{ type: 'text', text: LONG }])} client={client} />);
    // Synchronously after the first render the Markdown chunk cannot have arrived: this is the plain text.
    const plain = document.querySelector('.message-text');
    expect(plain).not.toBeNull();
    // Its first slice, the rest in the next frames, cut at RENDER_LIMIT.
    expect(shownText(plain!)).toBe(TEXT_SLICE);
    expect(screen.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  });

  it("in an error's details (an imported error block can hold any length)", async () => {
    render(() => <MessageView message={message('assistant', [{ type: 'error', code: 'provider_error', message: LONG }])} client={client} />);
    await waitFor(() => expect(shownText(document.querySelector('.error-details__text')!)).toBe(RENDER_LIMIT));
  });

  it("in a tool's arguments and result", async () => {
    const block: Block = { type: 'tool_call', toolCallId: 'call-1', toolName: 'fetch', args: LONG, status: 'success', result: LONG };
    render(() => <ToolCallCard block={block} conversationId="c1" messageId="m1" client={client} />);
    await waitFor(() => expect(shownText(document.querySelector('.tool-call-arguments')!)).toBe(RENDER_LIMIT));
    await waitFor(() => expect(shownText(document.querySelector('.tool-call-result')!)).toBe(RENDER_LIMIT));
    expect(screen.getAllByRole('button', { name: 'Show all' })).toHaveLength(2);
  });

  it("in a failed tool's result, shown in plain sight", async () => {
    const block: Block = { type: 'tool_call', toolCallId: 'call-1', toolName: 'fetch', args: {}, status: 'error', result: LONG };
    render(() => <ToolCallCard block={block} conversationId="c1" messageId="m1" client={client} />);
    await waitFor(() => expect(shownText(document.querySelector('.tool-call-result.error')!)).toBe(RENDER_LIMIT));
  });
});

describe('A long text opened', () => {
  it('shows its first slice at once and adds the rest a slice per frame, up to the cut', async () => {
    const { container } = render(() => <LongText class="message-text" text={LONG} />);
    const text = container.querySelector('.message-text')!;
    // Laying out the whole cut at once was most of a 1 MB reply's opening task.
    expect(text.textContent).toBe(LONG.slice(0, TEXT_SLICE));
    await waitFor(() => expect(text.textContent).toBe(LONG.slice(0, RENDER_LIMIT)));
    for (const slice of text.children) expect(slice.textContent!.length).toBeLessThanOrEqual(TEXT_SLICE);
  });

  it('keeps the slices already shown while it adds the next', async () => {
    const { container } = render(() => <LongText class="message-text" text={LONG} />);
    const first = container.querySelector('.text-slice')!;
    await waitFor(() => expect(container.querySelectorAll('.text-slice').length).toBeGreaterThan(2));
    expect(container.querySelector('.text-slice')).toBe(first);
  });

  it('shows a text that streams in as it comes', async () => {
    const [text, setText] = createSignal('first words');
    const { container } = render(() => <LongText class="message-text" text={text()} />);
    setText(LONG.slice(0, 50_000));
    await waitFor(() => expect(container.querySelector('.message-text')!.textContent).toBe(LONG.slice(0, 50_000)));
    setText(LONG.slice(0, 50_010));
    await waitFor(() => expect(container.querySelector('.message-text')!.textContent).toBe(LONG.slice(0, 50_010)));
  });
});

describe('Show all', () => {
  it('adds the rest a slice per frame, never all at once, up to the end', async () => {
    const { container } = render(() => <LongText class="message-text" text={LONG} />);
    const text = container.querySelector('.message-text')!;
    await waitFor(() => expect(text.textContent!.length).toBe(RENDER_LIMIT));
    const sliceCount = text.children.length;
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(screen.queryByRole('button', { name: 'Show all' })).toBeNull();
    // The click itself added one slice; the rest follow in later tasks.
    expect(text.children.length).toBe(sliceCount + 1);
    await waitFor(() => expect(text.textContent).toBe(LONG));
    for (const slice of text.children) expect(slice.textContent!.length).toBeLessThanOrEqual(TEXT_SLICE);
  });
});

describe('textSlices', () => {
  it('cuts after a line break when one is near, and never inside a surrogate pair', () => {
    const lines = 'x'.repeat(99) + '\n';
    const slices = textSlices(lines.repeat(1_000), 100_000);
    expect(slices.join('')).toBe(lines.repeat(1_000));
    for (const slice of slices) expect(slice.endsWith('\n')).toBe(true);
    const emoji = '😀'.repeat(30_000);
    const emojiSlices = textSlices(emoji, emoji.length);
    expect(emojiSlices.join('')).toBe(emoji);
    for (const slice of emojiSlices) expect(slice).toMatch(/^(\ud83d\ude00)+$/);
  });
});

import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/state/channel';
import { occurrenceRanges } from '../../src/ui/messages/find-highlights';
import { MessageList } from '../../src/ui/messages/MessageList';
import { MessageView } from '../../src/ui/messages/MessageView';

const fakeClient: WorkerClient = {
  send: vi.fn(() => new Promise<never>(() => {})) as unknown as WorkerClient['send'],
  onEvent: () => () => {},
};

function message(seq: number, role: Message['role'], blocks: Message['blocks']): Message {
  return { id: `m${seq}`, conversationId: 'c1', seq, role, blocks, status: 'complete', createdAt: seq, updatedAt: seq };
}

describe('Find in conversation: highlights', () => {
  it('finds the ranges of a query in rendered Markdown and reasoning, across elements, not in what the page adds', async () => {
    const reply = message(1, 'assistant', [
      { type: 'reasoning', text: 'Three ideas.' },
      { type: 'text', text: '**Thr**ee words, then code:\n\n```three\nthree();\n```\n' },
      { type: 'tool_call', toolCallId: 'call_1', toolName: 'three', args: {}, status: 'success', result: 'three' },
    ]);
    const { container } = render(() => <MessageView message={reply} client={fakeClient} />);
    // The Markdown renderer loads with the first reply; the code block's header (language, Copy) is the page's, not the text's.
    await waitFor(() => expect(container.querySelector('.markdown strong')).toHaveTextContent('Thr'));
    await waitFor(() => expect(container.querySelector('.code-header')).toHaveTextContent('three'));
    const ranges = occurrenceRanges(container.querySelector('article')!, 'THREE');
    expect(ranges.map((range) => range.toString())).toEqual(['Three', 'Three', 'three']);
    // The second spans the <strong> and the text after it.
    expect(ranges[1]!.startContainer.parentElement?.tagName).toBe('STRONG');
    expect(ranges[1]!.endContainer.parentElement?.tagName).not.toBe('STRONG');
    expect(ranges[2]!.startContainer.parentElement?.closest('code')).not.toBeNull();
  });

  it('counts matches, not messages, and walks them one by one within a message', async () => {
    const messages = [
      message(0, 'user', [{ type: 'text', text: 'Say three three three.' }]),
      message(1, 'user', [{ type: 'text', text: 'Nothing here.' }]),
      message(2, 'user', [{ type: 'text', text: 'And three once more.' }]),
    ];
    render(() => <MessageList messages={messages} client={fakeClient} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    screen.getByRole('button', { name: 'Find in conversation' }).click();
    const box = await screen.findByRole('searchbox', { name: 'Find in conversation' });
    fireEvent.input(box, { target: { value: 'three' } });
    // The newest match first: the one in the last message.
    await screen.findByText('4 of 4');
    expect(within(log).getByText('And three once more.').closest('.virtual-row')).toHaveClass('search-current');
    fireEvent.keyDown(box, { key: 'Enter' });
    await screen.findByText('3 of 4');
    expect(within(log).getByText('Say three three three.').closest('.virtual-row')).toHaveClass('search-current');
    screen.getByRole('button', { name: 'Older match' }).click();
    await screen.findByText('2 of 4');
    screen.getByRole('button', { name: 'Older match' }).click();
    await screen.findByText('1 of 4');
    expect(within(log).getByText('Say three three three.').closest('.virtual-row')).toHaveClass('search-current');
    // Past the oldest, it wraps around to the newest.
    screen.getByRole('button', { name: 'Older match' }).click();
    await screen.findByText('4 of 4');
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    await screen.findByText('1 of 4');
    fireEvent.input(box, { target: { value: 'nowhere' } });
    await screen.findByText('No matches');
    expect(log.querySelector('.search-current')).toBeNull();
  });
});

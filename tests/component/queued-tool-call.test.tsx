import { render, screen, waitFor } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { describe, expect, it, vi } from 'vitest';
import type { ToolCallBlock } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/state/channel';
import { MessageView } from '../../src/ui/messages/MessageView';

// Counts the loads of the full card's code: a call that waits for nothing yet must show without it.
const cardLoads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/ui/requests/ToolCallCard', () => {
  cardLoads.count += 1;
  return { ToolCallCard: (props: { block: ToolCallBlock }) => <div data-testid="full-card">{props.block.status}</div> };
});

const client = { send: () => new Promise<never>(() => {}), onEvent: () => () => {} } as unknown as WorkerClient;

function replyWith(call: ToolCallBlock): Message {
  return { id: 'a1', conversationId: 'c1', seq: 1, role: 'assistant', blocks: [{ type: 'text', text: 'Let me ask.' }, call], status: 'streaming', createdAt: 1, updatedAt: 1 };
}

const questionCall: ToolCallBlock = { type: 'tool_call', toolCallId: 'call-1', toolName: 'question', args: { questions: [{ question: 'Which?' }] }, status: 'pending' };

describe('A tool call that waits for nothing yet', () => {
  it("shows its name, status and arguments at once, without the card's code, which loads once the call runs", async () => {
    const [message, setMessage] = createSignal(replyWith(questionCall));
    render(() => <MessageView message={message()} client={client} />);
    const article = screen.getByRole('article', { name: 'Parley' });
    expect(article).toHaveTextContent('Tool: question');
    expect(article).toHaveTextContent('Queued');
    expect(article).toHaveTextContent('Arguments');
    expect(cardLoads.count).toBe(0);

    setMessage(replyWith({ ...questionCall, status: 'running' }));
    await waitFor(() => expect(screen.getByTestId('full-card')).toHaveTextContent('running'));
    expect(cardLoads.count).toBe(1);
  });
});

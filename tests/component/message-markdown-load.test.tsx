import { render, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/schema/records';
import type { WorkerClient } from '../../src/ui/state/channel';
import { MessageView } from '../../src/ui/messages/MessageView';

const client = { send: () => new Promise<never>(() => {}), onEvent: () => () => {} } as unknown as WorkerClient;

function reply(id: string, text: string): Message {
  return { id, conversationId: 'c1', seq: 1, role: 'assistant', blocks: [{ type: 'text', text }], status: 'complete', createdAt: 1, updatedAt: 1 };
}

describe('A reply while the Markdown renderer loads', () => {
  // The message list unmounts rows as it scrolls or measures them: the first reply shown can be gone before the
  // renderer's code arrives, and the replies still on screen must show their text all the same.
  it('shows its text, then its Markdown, when the reply that started the load was removed meanwhile', async () => {
    const first = render(() => <MessageView message={reply('a1', 'First reply')} client={client} />);
    render(() => <MessageView message={reply('a2', 'Second **reply**')} client={client} />);
    first.unmount();
    const article = screen.getByRole('article', { name: 'Parley' });
    expect(article).toHaveTextContent('Second **reply**');
    await waitFor(() => expect(article.querySelector('strong')).toHaveTextContent('reply'));
    expect(article).toHaveTextContent('Second reply');
  });
});

import { fireEvent, render, screen } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '../../src/schema/records';
import { AppContext } from '../../src/ui/state/app-context';
import type { WorkerClient } from '../../src/ui/state/channel';
import { MessageEditor } from '../../src/ui/messages/MessageBranching';
import { createUiStore } from '../../src/ui/state/store';

const mine: Message = { id: 'm1', conversationId: 'c', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'Plan my weekend' }], status: 'complete', createdAt: 0, updatedAt: 0 };

function setup() {
  const send = vi.fn(async () => ({ message: mine }));
  const client = { send, onEvent: () => () => {} } as unknown as WorkerClient;
  const { state, dispatch } = createUiStore();
  const onDone = vi.fn();
  render(() => (
    <AppContext.Provider value={{ client, state, dispatch }}>
      <MessageEditor message={mine} onDone={onDone} />
    </AppContext.Provider>
  ));
  const box = screen.getByRole('textbox', { name: 'Edit message' }) as HTMLTextAreaElement;
  return { box, send, onDone, type: (value: string) => fireEvent.input(box, { target: { value } }) };
}

describe('Edit message', () => {
  it('says an edit over the limit is too long before Send, sends nothing, and keeps the text', () => {
    const { box, send, type } = setup();
    type('x'.repeat(100_000));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    type('x'.repeat(100_001));
    expect(screen.getByRole('alert')).toHaveTextContent('This message is 100,001 characters long; a message holds at most 100,000. Shorten it, or attach the text as a file.');
    expect(box).toHaveAccessibleDescription(/100,001 characters long/);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(send).not.toHaveBeenCalled();
    expect(box.value).toHaveLength(100_001);
  });

  it('sends an edit within the limit as a new version', async () => {
    const { send, onDone, type, box } = setup();
    type('Plan my Sunday');
    fireEvent.keyDown(box, { key: 'Enter' });
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(send).toHaveBeenCalledWith({ type: 'message.edit', conversationId: 'c', messageId: 'm1', text: 'Plan my Sunday' });
  });
});

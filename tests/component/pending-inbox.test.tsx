import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { PendingInbox } from '../../src/ui/conversations/PendingInbox';
import { createUiStore } from '../../src/ui/state/store';
import type { WorkerClient } from '../../src/ui/state/channel';
import type { Conversation, Message } from '../../src/schema/records';
import type { PendingRequest } from '../../src/schema/protocol';

const conversation = (id: string, runState: Conversation['runState']): Conversation => ({ id, title: `Trip ${id}`, createdAt: 0, updatedAt: 1, runState, completedSteps: 1 });
const question = (id: string): PendingRequest => ({
  conversationId: id,
  conversationTitle: `Trip ${id}`,
  messageId: `m-${id}`,
  request: {
    type: 'request',
    kind: 'question',
    requestId: `call-${id}`,
    toolCallId: `call-${id}`,
    status: 'pending',
    payload: {
      questions: [
        { header: 'Where', question: `Where to for ${id}?`, options: [{ label: 'Beach' }], multiple: false, custom: true },
        { header: 'When', question: 'When?', options: [{ label: 'Soon' }], multiple: false, custom: true },
      ],
    },
  },
});

function setup(activeConversationId: string | undefined, waiting: PendingRequest[] | (() => PendingRequest[]) = [question('a'), question('b')]) {
  const { state, dispatch } = createUiStore();
  const send = vi.fn(async () => (typeof waiting === 'function' ? waiting() : waiting)) as unknown as WorkerClient['send'];
  const services = { client: { send, onEvent: () => () => undefined }, state, dispatch } as unknown as AppServices;
  render(() => (
    <AppContext.Provider value={services}>
      <PendingInbox activeConversationId={activeConversationId} />
    </AppContext.Provider>
  ));
  return { dispatch, send };
}

describe('PendingInbox', () => {
  it('lists the questions waiting in other conversations, and opens one', async () => {
    const { dispatch, send } = setup('a');
    dispatch({ type: 'conversations-listed', conversations: [conversation('a', 'awaiting_input'), conversation('b', 'awaiting_input'), conversation('c', 'idle')] });
    // Named as the README says: the first question, then the conversation's title (exactly, so no name runs together).
    const entry = await screen.findByRole('button', { name: 'Where to for b? — Trip b (and 1 more)' });
    expect(send).toHaveBeenCalledWith({ type: 'requests.listPending' });
    expect(screen.getByRole('heading', { name: 'Waiting for you (1)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Where to for a\?/ })).toBeNull(); // the open conversation shows its own form
    expect(entry).toHaveTextContent('Trip b · +1 more');
    expect(screen.queryByRole('link')).toBeNull(); // the list's links stay the only ones named by a title
    fireEvent.click(entry);
    expect(location.hash).toBe('#/c/b');
  });

  it('shows an untitled conversation by the placeholder its name uses, as the list does, not by an empty or stored English title', async () => {
    const { dispatch } = setup('a', [{ ...question('b'), conversationTitle: '' }, { ...question('c'), conversationTitle: 'New conversation' }]);
    dispatch({ type: 'conversations-listed', conversations: [conversation('b', 'awaiting_input'), conversation('c', 'awaiting_input')] });
    const entries = await screen.findAllByRole('button', { name: /^Where to for [bc]\? — New conversation \(and 1 more\)$/ });
    expect(entries.map((entry) => entry.querySelector('.pending-inbox-meta')?.textContent)).toEqual(['New conversation · +1 more', 'New conversation · +1 more']);
  });

  it('says what each kind of request asks: a tool to allow, a call to run again, a server\'s message', async () => {
    const where = (id: string) => ({ conversationId: id, conversationTitle: `Trip ${id}`, messageId: `m-${id}` });
    const { dispatch } = setup(undefined, [
      { ...where('b'), request: { type: 'request', kind: 'permission', requestId: 'r1', toolCallId: 'r1', status: 'pending', payload: { toolName: 'write_file' } } },
      { ...where('c'), request: { type: 'request', kind: 'rerun', requestId: 'r2', toolCallId: 'r2', status: 'pending', payload: { toolName: 'fetch' } } },
      { ...where('d'), request: { type: 'request', kind: 'elicitation', requestId: 'r3', toolCallId: 't3', status: 'pending', payload: { serverName: 'files', message: 'Who is it for?', requestedSchema: {} } } },
    ]);
    dispatch({ type: 'conversations-listed', conversations: ['b', 'c', 'd'].map((id) => conversation(id, 'awaiting_input')) });
    expect(await screen.findByRole('button', { name: 'Allow write_file? — Trip b' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run fetch again? — Trip c' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Who is it for? — Trip d' })).toBeInTheDocument();
  });

  it('reads the list again when the message holding a question arrives after its conversation (sync stores them apart)', async () => {
    let stored: PendingRequest[] = [];
    const { dispatch, send } = setup(undefined, () => stored);
    // The conversation's record came first: it says a question waits, but the worker cannot find the message yet.
    dispatch({ type: 'conversations-listed', conversations: [conversation('b', 'awaiting_input')] });
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('heading')).toBeNull();
    // Then the message: the inbox reads again and finds it.
    stored = [question('b')];
    const held: Message = { id: 'm-b', conversationId: 'b', seq: 1, role: 'assistant', blocks: [], status: 'complete', createdAt: 0, updatedAt: 1, pendingRequestId: 'call-b' };
    dispatch({ type: 'message-upserted', message: held });
    expect(await screen.findByRole('heading', { name: 'Waiting for you (1)' })).toBeInTheDocument();
    expect(send).toHaveBeenCalledTimes(2);
    // Its other messages' events, and the same message again, read nothing more.
    dispatch({ type: 'message-upserted', message: { ...held, id: 'm-c', pendingRequestId: undefined } });
    dispatch({ type: 'message-upserted', message: { ...held, updatedAt: 2 } });
    await Promise.resolve();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('shows nothing when no question waits', async () => {
    const { dispatch, send } = setup(undefined);
    dispatch({ type: 'conversations-listed', conversations: [conversation('a', 'idle')] });
    await waitFor(() => expect(screen.queryByRole('heading')).toBeNull());
    expect(send).not.toHaveBeenCalled();
  });
});

import { fireEvent, render, screen } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Conversation, Message } from '../../src/schema/records';
import { AppContext } from '../../src/ui/state/app-context';
import type { WorkerClient } from '../../src/ui/state/channel';
import { MessageView } from '../../src/ui/messages/MessageView';
import { createUiStore } from '../../src/ui/state/store';
import { ConversationSearch } from '../../src/ui/conversations/ConversationSearch';
import { MessageList } from '../../src/ui/messages/MessageList';

// What a first conversation does not show loads on use: a message's version switch, its editor and the branch's
// dialogs (MessageBranching.tsx: a first conversation has no versions and edits nothing), the results of a search
// across conversations, Find's count in the messages the page holds (searchable-text.ts, with Find's own code).
// Whether a module was evaluated says whether it was loaded.
const evaluated = vi.hoisted(() => ({ branching: false, searchResults: false, searchableText: false }));
vi.mock('../../src/schema/search/searchable-text', async (importOriginal) => {
  evaluated.searchableText = true;
  return importOriginal();
});
vi.mock('../../src/ui/messages/MessageBranching', async (importOriginal) => {
  evaluated.branching = true;
  return importOriginal();
});
vi.mock('../../src/ui/conversations/ConversationSearchResults', async (importOriginal) => {
  evaluated.searchResults = true;
  return importOriginal();
});

const conversation: Conversation = { id: 'c', title: 'Weekend', createdAt: 0, updatedAt: 0, runState: 'idle', completedSteps: 1 };
const mine: Message = { id: 'u1', conversationId: 'c', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'Plan my weekend' }], status: 'complete', createdAt: 0, updatedAt: 0 };
const reply: Message = { id: 'a1', conversationId: 'c', seq: 1, role: 'assistant', blocks: [{ type: 'text', text: 'Gladly.' }], status: 'complete', createdAt: 0, updatedAt: 0 };

function setup(shown: Conversation) {
  const send = vi.fn(async () => ({}));
  const client = { send, onEvent: () => () => {} } as unknown as WorkerClient;
  const { state, dispatch } = createUiStore();
  dispatch({ type: 'conversation-opened', conversation: shown, messages: [mine, reply], earlier: 0 });
  render(() => (
    <AppContext.Provider value={{ client, state, dispatch }}>
      <MessageView message={mine} client={client} />
      <MessageView message={reply} client={client} />
    </AppContext.Provider>
  ));
  return { send };
}

describe("a message's versions and editor", () => {
  it('are not loaded for a conversation without versions, and Edit loads the editor before it shows', async () => {
    const { send } = setup(conversation);
    const [you, parley] = screen.getAllByRole('article');
    expect(you!.querySelector('[aria-label="Edit"]')).not.toBeNull();
    expect(parley!.querySelector('[aria-label="Regenerate"]')).not.toBeNull();
    expect(screen.queryByRole('group', { name: 'Versions' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(evaluated.branching).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const box = await screen.findByRole('textbox', { name: 'Edit message' });
    expect(evaluated.branching).toBe(true);
    expect(box).toHaveValue('Plan my weekend');
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    await vi.waitFor(() => expect(send).toHaveBeenCalledWith({ type: 'message.regenerate', conversationId: 'c', messageId: 'a1' }));
  });

  it('show the switch of a conversation that has versions', async () => {
    setup({ ...conversation, forks: [{ parentId: 'u1', childIds: ['a1', 'a2'], selectedId: 'a1' }] });
    const versions = await screen.findByRole('group', { name: 'Versions' });
    expect(versions).toHaveTextContent('1 of 2');
    expect(screen.getByRole('button', { name: 'Next version' })).toBeEnabled();
  });
});

describe('search across conversations', () => {
  it('loads its results\' code with the first search, and shows them once both are here', async () => {
    const search = vi.fn(async () => [{ conversationId: 'c1', title: { text: 'Garden', ranges: [{ start: 0, end: 6 }] }, matchingMessages: 0 }]);
    render(() => <ConversationSearch search={search} />);
    const box = screen.getByRole('searchbox', { name: 'Search conversations' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(evaluated.searchResults).toBe(false);
    fireEvent.input(box, { target: { value: 'garden' } });
    const list = await screen.findByRole('list', { name: 'Matching conversations' });
    expect(evaluated.searchResults).toBe(true);
    expect(list).toHaveTextContent('Garden');
  });
});

describe('Find in conversation', () => {
  it("loads its count with Find's code, not with the conversation's messages, and counts in what the page holds", async () => {
    const client = { send: vi.fn(() => new Promise<never>(() => {})), onEvent: () => () => {} } as unknown as WorkerClient;
    render(() => <MessageList messages={[mine, reply]} client={client} />);
    await screen.findByText('Gladly.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(evaluated.searchableText).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Find in conversation' }));
    const box = await screen.findByRole('searchbox', { name: 'Find in conversation' });
    expect(evaluated.searchableText).toBe(true);
    fireEvent.input(box, { target: { value: 'weekend' } });
    await screen.findByText('1 of 1');
  });
});

import { render, screen, within } from '@solidjs/testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../src/schema/records';
import { AppContext } from '../../src/ui/state/app-context';
import type { WorkerClient } from '../../src/ui/state/channel';
import { ConversationList } from '../../src/ui/conversations/ConversationList';
import { createUiStore } from '../../src/ui/state/store';

const client: WorkerClient = {
  send: vi.fn(() => new Promise<never>(() => {})) as unknown as WorkerClient['send'],
  onEvent: () => () => {},
};

function conversation(index: number, extra: Partial<Conversation> = {}): Conversation {
  return { id: `c${index}`, title: `Conversation ${index}`, createdAt: index, updatedAt: index, runState: 'idle', completedSteps: 0, ...extra };
}

describe('ConversationList', () => {
  it('lists 10,000 conversations with a bounded number of items, newest first, links named by title', () => {
    const { state, dispatch } = createUiStore();
    const conversations = Array.from({ length: 10_000 }, (_, index) => conversation(index, index === 9_998 ? { runState: 'awaiting_input' } : {}));
    dispatch({ type: 'conversations-imported', conversations });
    render(() => (
      <AppContext.Provider value={{ client, state, dispatch }}>
        <nav class="conversation-nav" aria-label="Conversations">
          <ConversationList activeConversationId={undefined} />
        </nav>
      </AppContext.Provider>
    ));
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    const items = within(nav).getAllByRole('listitem');
    expect(items.length).toBeGreaterThan(5);
    expect(items.length).toBeLessThanOrEqual(80);
    const links = within(nav).getAllByRole('link');
    expect(links[0]).toHaveAccessibleName('Conversation 9999');
    expect(links[1]).toHaveAccessibleName('Conversation 9998');
    expect(links[1]!.closest('li')).toHaveAttribute('data-pending', 'true');
    expect(links[0]!.closest('li')).toHaveAttribute('data-pending', 'false');
  }, 30_000);
});

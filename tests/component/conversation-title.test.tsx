import { render, screen, within } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../src/schema/records';
import { AppContext } from '../../src/ui/state/app-context';
import type { WorkerClient } from '../../src/ui/state/channel';
import { ChatHeader } from '../../src/ui/chat/ChatHeader';
import { ConversationList } from '../../src/ui/conversations/ConversationList';
import { zhCN } from '../../src/ui/i18n/dictionary-zh-CN';
import { setLocale } from '../../src/ui/i18n/i18n';
import { createUiStore } from '../../src/ui/state/store';

const client: WorkerClient = {
  send: vi.fn(() => new Promise<never>(() => {})) as unknown as WorkerClient['send'],
  onEvent: () => () => {},
};

function conversation(id: string, title: string, updatedAt: number): Conversation {
  return { id, title, createdAt: updatedAt, updatedAt, runState: 'idle', completedSteps: 0 };
}

afterEach(() => setLocale('en'));

describe('a conversation with no title yet', () => {
  it('shows the placeholder in the UI’s language, for an empty title and for the English one stored by earlier versions', async () => {
    await setLocale('zh-CN');
    const { state, dispatch } = createUiStore();
    dispatch({ type: 'conversations-imported', conversations: [conversation('new', '', 3), conversation('before', 'New conversation', 2), conversation('named', 'Trip to Lisbon', 1)] });
    render(() => (
      <AppContext.Provider value={{ client, state, dispatch }}>
        <nav aria-label="Conversations">
          <ConversationList activeConversationId="new" />
        </nav>
        <ChatHeader conversation={state.conversations['before']!} profiles={[]} defaultProfileId="scripted" />
      </AppContext.Provider>
    ));
    const links = within(screen.getByRole('navigation', { name: 'Conversations' })).getAllByRole('link');
    expect(links.map((link) => link.textContent?.trim())).toEqual(['新建对话', '新建对话', 'Trip to Lisbon']);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^新建对话$/);
  });

  it('the Chinese welcome suggests a message in Chinese', () => {
    expect(zhCN['empty.try']).not.toMatch(/Plan my weekend/);
    expect(zhCN['messages.empty']).not.toMatch(/Plan my weekend/);
  });
});

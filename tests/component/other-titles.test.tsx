import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../src/schema/records';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { ChatHeader } from '../../src/ui/chat/ChatHeader';
import { setLocale } from '../../src/ui/i18n/i18n';
import { createUiStore } from '../../src/ui/state/store';

// A title renamed on two devices ends the same everywhere, and the losing one is kept in the conversation's
// `otherTitles`, not dropped. The rename form shows them ("Also named: …"), so the user can find one and take it back.

afterEach(() => setLocale('en'));

function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return { id: 'c1', title: 'Trip plans', createdAt: 1, updatedAt: 1, runState: 'idle', completedSteps: 0, ...overrides };
}

function renderHeader(shown: Conversation) {
  const send = vi.fn(async (command: Record<string, unknown>) => (command.type === 'conversation.rename' ? { ...shown, title: command.title } : undefined));
  const { state, dispatch } = createUiStore();
  const app = { client: { send, onEvent: () => () => undefined }, state, dispatch } as unknown as AppServices;
  render(() => (
    <AppContext.Provider value={app}>
      <ChatHeader conversation={shown} profiles={[]} defaultProfileId="scripted" />
    </AppContext.Provider>
  ));
  return send;
}

const renamedElsewhere = conversation({
  otherTitles: [
    { title: 'Lisbon trip', at: 2, device: 'phone-id' },
    { title: 'Porto', at: 3, device: 'tablet-id' },
    { title: 'Trip plans', at: 4 },
    { title: 'Porto', at: 1 },
  ],
});

describe('titles kept from a rename conflict (sync)', () => {
  it('the rename form lists them, newest first and each once; choosing one fills the title, Save renames to it', async () => {
    const send = renderHeader(renamedElsewhere);
    expect(screen.queryByRole('group', { name: 'Also named:' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Rename conversation' }));
    const group = await screen.findByRole('group', { name: 'Also named:' });
    // The current title is not offered again; a title kept twice is offered once.
    expect(within(group).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Use “Porto”', 'Use “Lisbon trip”']);
    fireEvent.click(within(group).getByRole('button', { name: 'Use “Lisbon trip”' }));
    expect(screen.getByRole('textbox', { name: 'Conversation title' })).toHaveValue('Lisbon trip');
    fireEvent.click(screen.getByRole('button', { name: 'Save title' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith({ type: 'conversation.rename', conversationId: 'c1', title: 'Lisbon trip' }));
  });

  it('says it in 简体中文 too', async () => {
    await setLocale('zh-CN');
    renderHeader(renamedElsewhere);
    fireEvent.click(screen.getByRole('button', { name: '重命名对话' }));
    const group = await screen.findByRole('group', { name: '也曾命名为：' });
    expect(within(group).getByRole('button', { name: '使用“Porto”' })).toHaveTextContent('Porto');
  });

  it('shows nothing of it when no title was lost', async () => {
    renderHeader(conversation());
    fireEvent.click(screen.getByRole('button', { name: 'Rename conversation' }));
    expect(await screen.findByRole('textbox', { name: 'Conversation title' })).toHaveValue('Trip plans');
    expect(screen.queryByRole('group')).toBeNull();
  });
});

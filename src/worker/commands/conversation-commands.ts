import type { Conversation } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import { OPEN_PAGE_SIZE } from '../store/message-pages';
import { settingsFrom } from '../settings/settings-store';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/** The conversations: listing, opening and paging, creating, renaming and deleting, and searching them. */
export function createConversationHandlers(deps: CommandHandlerDeps) {
  const { store, settings, runs } = deps;
  const viewed = async (): Promise<ReadonlySet<string>> => (await deps.viewedConversations?.()) ?? new Set();

  return {
    'conversation.list': async () => {
      const unrepaired = await runs.recoverAll();
      const conversations = await store.listConversations();
      // A request waiting for the user is likely answered next: its provider's code loads meanwhile (see conversation.open).
      for (const conversation of conversations) if (conversation.runState === 'awaiting_input') deps.prepareModel?.(conversation);
      return conversations.map((conversation) => (unrepaired.has(conversation.id) ? asInterrupted(conversation) : conversation));
    },
    'conversation.create': async (command) => {
      const conversation = await store.createConversation(command.title, (stored) => settingsFrom(stored).defaultProfileId, command.conversationId, await viewed());
      deps.sync?.claim(conversation.id); // made here: this device runs it
      return conversation;
    },
    'conversation.discardUnused': async (command) => {
      const keep = new Set(await viewed());
      if (command.keep) keep.add(command.keep);
      return { removed: await store.discardUnused(keep) };
    },
    'conversation.saveDraft': async (command) => {
      await store.saveComposerDraft(command.conversationId, command.text);
      return { saved: true as const };
    },
    'conversation.rename': (command) => store.updateConversation(command.conversationId, (conversation) => ({ ...conversation, title: command.title, updatedAt: deps.now() })),
    'conversation.delete': async (command) => {
      runs.stop(command.conversationId);
      deps.requestPeerStop(command.conversationId);
      await store.deleteConversation(command.conversationId);
      return { conversationId: command.conversationId };
    },
    'conversation.open': async (command) => {
      // Opening must work on a full disk: a dead run whose repair cannot be written is shown as interrupted anyway.
      const repair = await runs.tryRecover(command.conversationId);
      const conversation = await store.getConversation(command.conversationId);
      if (!conversation) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists. It may have been deleted in another tab.' });
      // An answer or a message may follow: after a reload its first request would otherwise wait for the provider's code.
      deps.prepareModel?.(conversation);
      // Only the newest page: a 10,000-message conversation opens as fast as a short one; the UI pages back by seq.
      const { messages, earlier } = await store.listNewestMessages(command.conversationId, OPEN_PAGE_SIZE);
      if (repair === 'failed' && conversation.runState === 'running') {
        return { conversation: asInterrupted(conversation), messages: messages.map((message) => (message.status === 'streaming' ? { ...message, status: 'interrupted' as const } : message)), earlier };
      }
      return { conversation, messages, earlier };
    },
    'conversation.setProfile': async (command) => {
      if (!(await settings.getProfile(command.profileId))) throw new WireError({ code: 'not_found', reason: 'profile_gone', message: 'That model profile does not exist.', field: 'profileId' });
      return store.updateConversation(command.conversationId, (conversation) => ({ ...conversation, profileId: command.profileId }));
    },
    'conversation.setInstructions': (command) =>
      store.updateConversation(command.conversationId, (conversation) => {
        const next = { ...conversation };
        if (command.instructions) next.instructions = command.instructions;
        else delete next.instructions;
        return next;
      }),
    'message.whole': async (command) => {
      const message = await store.getMessage(command.messageId);
      if (!message) throw new WireError({ code: 'not_found', reason: 'message_gone', message: 'This message no longer exists.' });
      return { message };
    },
    'conversation.messages': async (command) => {
      if (!(await store.getConversation(command.conversationId))) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists. It may have been deleted in another tab.' });
      return store.listMessagePage(command.conversationId, command);
    },
    'conversation.search': async (command) => ({ matches: await store.searchMessages(command.conversationId, command.query) }),
    'conversations.search': async (command) => ({ results: await deps.search.search(command.query, command.limit ?? 20) }),
    'storage.conversationSizes': (command) => store.conversationSizes(command.limit),
  } satisfies Partial<Handlers>;
}

/** How a dead run is shown when its repair could not be stored. */
function asInterrupted(conversation: Conversation): Conversation {
  return conversation.runState === 'running' ? { ...conversation, runState: 'interrupted' } : conversation;
}

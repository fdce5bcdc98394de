import type { Conversation } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import { discardUnusedConversations, listConversations, messagePage, openConversation } from '../first-screen/first-screen-reads';
import { defaultProfileIdFrom } from '../settings/settings-store';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/** The conversations: listing, opening and paging, creating, renaming and deleting, and searching them. */
export function createConversationHandlers(deps: CommandHandlerDeps) {
  const { store, settings, runs } = deps;
  // Never discarded as unused (see unused-conversations.ts): another device's conversation arrives as its first record,
  // untitled and without messages, and discarding it here would sync its deletion to every device, its runner's included.
  // Until sync has read who runs what (a worker starting with sync on), nothing is discarded: the next clean-up will.
  const runElsewhere = async (): Promise<string[] | undefined> => {
    const runners = deps.sync ? await deps.sync.knownRunners() : {};
    return runners && Object.keys(runners);
  };

  return {
    // The first screen's reads (docs/architecture.md, "The first screen"), after the repairs only this host makes.
    'conversation.list': async () => {
      const unrepaired = await runs.recoverAll();
      const conversations = await listConversations(deps.reads);
      return conversations.map((conversation) => (unrepaired.has(conversation.id) ? asInterrupted(conversation) : conversation));
    },
    'conversation.create': async (command) => {
      const elsewhere = await runElsewhere();
      const keep = elsewhere && new Set([...(await deps.reads.viewed()), ...elsewhere]);
      const conversation = await store.createConversation(command.title, defaultProfileIdFrom, command.conversationId, keep);
      deps.sync?.claim(conversation.id); // made here: this device runs it
      return conversation;
    },
    'conversation.discardUnused': async (command) => {
      const elsewhere = await runElsewhere();
      return elsewhere ? discardUnusedConversations(deps.reads, command, elsewhere) : { removed: [] };
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
      const { conversation, messages, earlier } = await openConversation(deps.reads, command);
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
    'conversation.messages': (command) => messagePage(deps.reads, command),
    'conversation.search': async (command) => ({ matches: await store.searchMessages(command.conversationId, command.query) }),
    'conversations.search': async (command) => ({ results: await deps.search.search(command.query, command.limit ?? 20) }),
    'storage.conversationSizes': (command) => store.conversationSizes(command.limit),
  } satisfies Partial<Handlers>;
}

/** How a dead run is shown when its repair could not be stored. */
function asInterrupted(conversation: Conversation): Conversation {
  return conversation.runState === 'running' ? { ...conversation, runState: 'interrupted' } : conversation;
}

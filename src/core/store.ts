import type { Conversation, Message } from '../schema/records';

/** Records written together in one transaction: all or nothing. */
export interface RecordChange {
  conversation?: Conversation;
  messages?: Message[];
}

/**
 * The loop's view of storage. The worker implements it over IndexedDB; every call is one
 * transaction, and nothing else is awaited inside it.
 */
export interface ConversationStore {
  getConversation(conversationId: string): Promise<Conversation | undefined>;
  /** The conversation's messages in order. */
  listMessages(conversationId: string): Promise<Message[]>;
  /**
   * Writes the change atomically. With `ifExists`, nothing is written (and false returned) when the conversation is gone,
   * so a run cannot bring back a conversation deleted under it.
   */
  write(change: RecordChange, options?: { ifExists?: boolean }): Promise<boolean>;
}

import type { Conversation, Message, RunError, RunState } from '../../schema/records';

/** Records written together in one transaction: all or nothing. */
export interface RecordChange {
  conversation?: Conversation;
  messages?: Message[];
}

/** A conversation and its messages in order, as a run starts from them. */
export interface RunSnapshot {
  conversation: Conversation;
  history: Message[];
  /**
   * A tool call of the last message that the transaction starting this run marked `running` (an Allow's compare-and-set,
   * see beginCall): the run calls its tool first, without marking it again.
   */
  begunCall?: string;
}

/**
 * The loop's view of storage. The worker implements it over IndexedDB; every call is one
 * transaction, and nothing else is awaited inside it.
 */
export interface ConversationStore {
  /** The conversation and its messages, read together; undefined when it is gone. */
  readRun(conversationId: string): Promise<RunSnapshot | undefined>;
  /**
   * Writes the change atomically. With `ifExists`, nothing is written (and false returned) when the conversation is gone,
   * so a run cannot bring back a conversation deleted under it.
   */
  write(change: RecordChange, options?: { ifExists?: boolean }): Promise<boolean>;
  /**
   * Atomically sets the stored conversation's run fields (nothing else: a rename made meanwhile survives) and writes
   * `messages`. Writes nothing and resolves undefined when the conversation is gone.
   */
  applyRun(conversationId: string, change: RunChange, messages: Message[]): Promise<Conversation | undefined>;
}

/** The run fields a loop step changes. An absent runError clears it. */
export interface RunChange {
  runState: RunState;
  runError?: RunError;
  /** Count a completed model step (the scripted model's step index). */
  countStep?: boolean;
}

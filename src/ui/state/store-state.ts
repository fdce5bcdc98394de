/** What the UI store holds, the events that change it and its start; the reducer in store.ts is their one writer. */

import type { AppEvent, RunNotice, ToolProgress } from '../../schema/events';
import type { Conversation, Message, ProfileView, Settings } from '../../schema/records';
import type { McpServerView } from '../../schema/mcp';
import type { RemoteRunners, SyncStatus } from '../../schema/sync/sync';

/** Everything the UI shows that came from the worker. Changed only through `applyEvent`. */
export interface UiState {
  /** True once the worker has said `worker-ready`. */
  workerReady: boolean;
  /** True once the first conversation list arrived, so "no conversations" means none, not "not yet". */
  conversationsLoaded: boolean;
  conversations: Record<string, Conversation>;
  /** Conversation ids, most recently updated first. */
  conversationOrder: string[];
  /** Messages per conversation, by `seq`; present only for conversations that were opened. */
  messages: Record<string, Message[]>;
  runNotices: Record<string, RunNotice>;
  /** The latest progress of tool calls that are running, by tool call id (transient, never stored). */
  toolProgress: Record<string, ToolProgress>;
  settings: Settings | undefined;
  profiles: ProfileView[];
  /** MCP servers as this tab's worker sees them (connection status is per tab). */
  mcpServers: McpServerView[];
  /** Conversations waiting for an answer to a question. */
  pendingQuestionCount: number;
  /**
   * Those conversations as `id:title:held|…`, newest first, where `held` is the message holding its pending request as
   * the events told it: it changes exactly when the inbox must read them again.
   */
  pendingKey: string;
  /**
   * By conversation, `messageId:requestId` of the message its events last said holds a pending request. Sync may store
   * a conversation's record before that message (they travel in different documents): the record alone changed the
   * key while the pending list could not find the request yet, and nothing read it again once the message came.
   */
  pendingMessages: Record<string, string>;
  storageError: string | undefined;
  /** A newer Parley took the database over in another tab: nothing works here until a reload. */
  appOutdated: boolean;
  /** Counts worker restarts: views re-read what they show when it changes. */
  workerGeneration: number;
  /** The worker died and was restarted; shown until dismissed. */
  workerRestarted: boolean;
  /** Per opened conversation: how many stored messages come before the first one in `messages` (not read yet). */
  earlierMessages: Record<string, number>;
  /**
   * Messages whose events came while their conversation was being opened (asked, its snapshot not back yet): the
   * snapshot may have been read before they were stored, so they are merged into it rather than dropped.
   */
  openingMessages: Record<string, Message[]>;
  /** Sync as the worker last said; undefined until it was asked (Settings → Sync, or the start with sync on). */
  sync: SyncStatus | undefined;
  /** Conversations another device runs, by id: their header offers "Continue on this device". */
  runners: RemoteRunners;
}

/** Worker events plus the results of the UI's own reads, which land in the store the same way. */
export type UiEvent =
  | AppEvent
  | { type: 'conversations-listed'; conversations: Conversation[] }
  /** `conversation.open` was sent: its messages' events are kept until its snapshot comes. */
  | { type: 'conversation-opening'; conversationId: string }
  | { type: 'conversation-opened'; conversation: Conversation; messages: Message[]; earlier?: number }
  /** An earlier page of an opened conversation; `earlier` counts the stored messages before its first one. */
  | { type: 'message-page-loaded'; conversationId: string; messages: Message[]; earlier: number }
  | { type: 'storage-error-dismissed' }
  | { type: 'worker-restart-dismissed' };

/** The state before the worker has said anything: empty, and not yet loaded. */
export function createInitialState(): UiState {
  return {
    workerReady: false,
    conversationsLoaded: false,
    conversations: {},
    conversationOrder: [],
    messages: {},
    runNotices: {},
    toolProgress: {},
    settings: undefined,
    profiles: [],
    mcpServers: [],
    pendingQuestionCount: 0,
    pendingKey: '',
    pendingMessages: {},
    storageError: undefined,
    appOutdated: false,
    workerGeneration: 0,
    workerRestarted: false,
    earlierMessages: {},
    openingMessages: {},
    sync: undefined,
    runners: {},
  };
}

/** Whether a snapshot's record is older than what events already brought: then it must not win. */
export function isStale(existing: { updatedAt: number } | undefined, incoming: { updatedAt: number }, options?: { snapshot?: boolean }): boolean {
  return options?.snapshot === true && existing !== undefined && existing.updatedAt > incoming.updatedAt;
}

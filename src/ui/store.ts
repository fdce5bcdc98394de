import { createStore, produce, unwrap } from 'solid-js/store';
import type { AppEvent, RunNotice, ToolProgress } from '../schema/events';
import type { Conversation, Message, ProfileView, Settings } from '../schema/records';
import type { McpServerView } from '../schema/mcp';
import type { RemoteRunners, SyncStatus } from '../schema/sync';
import { replaceInPlace } from './replace-in-place';

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
  /** Those conversations as `id:title|…`, newest first: it changes exactly when the inbox must read them again. */
  pendingKey: string;
  storageError: string | undefined;
  /** A newer Parley took the database over in another tab: nothing works here until a reload. */
  appOutdated: boolean;
  /** Counts worker restarts: views re-read what they show when it changes. */
  workerGeneration: number;
  /** The worker died and was restarted; shown until dismissed. */
  workerRestarted: boolean;
  /** Per opened conversation: how many stored messages come before the first one in `messages` (not read yet). */
  earlierMessages: Record<string, number>;
  /** Sync (issue 19) as the worker last said; undefined until it was asked (Settings → Sync, or the start with sync on). */
  sync: SyncStatus | undefined;
  /** Conversations another device runs, by id: their header offers "Continue on this device". */
  runners: RemoteRunners;
}

/** Worker events plus the results of the UI's own reads, which land in the store the same way. */
export type UiEvent =
  | AppEvent
  | { type: 'conversations-listed'; conversations: Conversation[] }
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
    storageError: undefined,
    appOutdated: false,
    workerGeneration: 0,
    workerRestarted: false,
    earlierMessages: {},
    sync: undefined,
    runners: {},
  };
}

/**
 * The one reducer of the UI store. Meant to run on a `produce` draft (or a plain object in tests):
 * it mutates `state` and touches nothing else. Records arrive whole and replace what was there.
 */
export function applyEvent(state: UiState, event: UiEvent): void {
  switch (event.type) {
    case 'worker-ready':
      state.workerReady = true;
      return;
    case 'conversations-imported':
    case 'conversations-listed':
      putConversationSnapshot(state, event.conversations);
      state.conversationsLoaded = true;
      refreshDerived(state);
      return;
    case 'conversation-upserted':
      putConversation(state, event.conversation);
      refreshDerived(state);
      return;
    case 'conversation-opened':
      putConversation(state, event.conversation, { snapshot: true });
      state.messages[event.conversation.id] = mergeSnapshot(state.messages[event.conversation.id], event.messages);
      state.earlierMessages[event.conversation.id] = earlierThanLoaded(state.messages[event.conversation.id]!, event.messages, event.earlier ?? 0);
      refreshDerived(state);
      return;
    case 'message-page-loaded': {
      const loaded = state.messages[event.conversationId];
      if (!loaded) return;
      state.messages[event.conversationId] = mergeSnapshot(loaded, event.messages);
      state.earlierMessages[event.conversationId] = earlierThanLoaded(state.messages[event.conversationId]!, event.messages, event.earlier);
      return;
    }
    case 'conversation-deleted':
      forgetConversation(state, event.conversationId);
      refreshDerived(state);
      return;
    case 'message-upserted':
      // An old message that was not read yet stays unread: the loaded messages are the stored ones from some seq on.
      if (isBeforeLoaded(state, event.message)) return;
      upsertMessage(state, event.message);
      forgetFinishedProgress(state, event.message);
      return;
    case 'tool-progress':
      // Late progress (throttled, sent after the call's last write) must not come back for a call that ended.
      if (isRunningCall(state, event.conversationId, event.messageId, event.toolCallId)) state.toolProgress[event.toolCallId] = event.progress;
      return;
    case 'run-notice':
      if (event.notice) state.runNotices[event.conversationId] = event.notice;
      else delete state.runNotices[event.conversationId];
      return;
    case 'settings-changed':
      state.settings = event.settings;
      return;
    case 'profiles-changed':
      state.profiles = event.profiles;
      return;
    case 'storage-error':
      state.storageError = event.message;
      return;
    case 'storage-error-dismissed':
      state.storageError = undefined;
      return;
    case 'app-outdated':
      state.appOutdated = true;
      return;
    case 'worker-restarted':
      state.workerReady = false;
      state.workerGeneration += 1;
      state.workerRestarted = true;
      state.toolProgress = {};
      return;
    case 'worker-restart-dismissed':
      state.workerRestarted = false;
      return;
    case 'mcp-servers-changed':
      state.mcpServers = event.servers;
      return;
    case 'sync-status':
      state.sync = event.status;
      // Turned off, no other device runs anything here any more: every conversation is this device's again.
      if (event.status.state === 'off' && Object.keys(state.runners).length > 0) state.runners = {};
      return;
    case 'sync-runners':
      // Whole, not merged: a conversation taken over by this device is one that is no longer listed.
      state.runners = event.runners;
      return;
  }
}

/** A store wired to `applyEvent`; `dispatch` is the only way to change it. */
export function createUiStore(initial: UiState = createInitialState()) {
  const [state, setState] = createStore<UiState>(initial);
  const dispatch = (event: UiEvent) => setState(produce((draft) => applyEvent(draft, event)));
  return { state, dispatch };
}

/** Whether a snapshot's record is older than what events already brought: then it must not win. */
function isStale(existing: { updatedAt: number } | undefined, incoming: { updatedAt: number }, options?: { snapshot?: boolean }): boolean {
  return options?.snapshot === true && existing !== undefined && existing.updatedAt > incoming.updatedAt;
}

function putConversation(state: UiState, conversation: Conversation, options?: { snapshot?: boolean }): void {
  const existing = state.conversations[conversation.id];
  if (isStale(existing, conversation, options)) return;
  if (existing) replaceInPlace(existing, conversation);
  else state.conversations[conversation.id] = conversation;
}

/**
 * A list read (or an import) in one write: new records go in with one assignment of the map, and only records that
 * differ are merged through the store. One write per record, each through the store's proxies, took 0.4 s for
 * 10,000 imported conversations. A snapshot that events may have overtaken never drops a record (deletions come as
 * events) and never replaces a newer one.
 */
function putConversationSnapshot(state: UiState, conversations: readonly Conversation[]): void {
  const current = unwrap(state.conversations);
  let added: Record<string, Conversation> | undefined;
  for (const conversation of conversations) {
    const existing = current[conversation.id];
    if (!existing) (added ??= {})[conversation.id] = conversation;
    else if (!isStale(existing, conversation, { snapshot: true }) && !sameJson(existing, conversation)) putConversation(state, conversation, { snapshot: true });
  }
  if (added) state.conversations = { ...current, ...added };
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

function forgetConversation(state: UiState, conversationId: string): void {
  delete state.conversations[conversationId];
  delete state.messages[conversationId];
  delete state.runNotices[conversationId];
  delete state.earlierMessages[conversationId];
}

/**
 * How many stored messages are still unread before `loaded` once a page whose first message had `earlier` stored
 * messages before it was merged in: those of them already loaded are not (loaded messages are contiguous).
 */
function earlierThanLoaded(loaded: readonly Message[], page: readonly Message[], earlier: number): number {
  const first = page[0]?.seq;
  if (first === undefined) return loaded.length > 0 ? 0 : earlier;
  let older = 0;
  for (const message of loaded) {
    if (message.seq >= first) break;
    older += 1;
  }
  return Math.max(0, earlier - older);
}

function isBeforeLoaded(state: UiState, message: Message): boolean {
  const first = state.messages[message.conversationId]?.[0];
  return (state.earlierMessages[message.conversationId] ?? 0) > 0 && first !== undefined && message.seq < first.seq;
}

/** Messages of conversations that were never opened are not kept: opening reads them whole. */
function isRunningCall(state: UiState, conversationId: string, messageId: string, toolCallId: string): boolean {
  const message = state.messages[conversationId]?.find((candidate) => candidate.id === messageId);
  return message?.blocks.some((block) => block.type === 'tool_call' && block.toolCallId === toolCallId && block.status === 'running') ?? false;
}

function forgetFinishedProgress(state: UiState, message: Message): void {
  for (const block of message.blocks) {
    if (block.type === 'tool_call' && block.status !== 'running' && block.toolCallId in state.toolProgress) delete state.toolProgress[block.toolCallId];
  }
}

function upsertMessage(state: UiState, message: Message, options?: { snapshot?: boolean }): void {
  const list = state.messages[message.conversationId];
  if (!list) return;
  const index = list.findIndex((candidate) => candidate.id === message.id);
  if (index >= 0) {
    const existing = list[index]!;
    if (isStale(existing, message, options)) return;
    if (existing.seq === message.seq) {
      replaceInPlace(existing, message);
      return;
    }
    list.splice(index, 1);
  }
  // Another message where one is loaded: the path on screen changed from there (a new or another version), so what
  // was loaded after it belongs to the path left behind.
  const replaced = list.findIndex((candidate) => candidate.seq === message.seq && candidate.id !== message.id);
  if (replaced >= 0) list.splice(replaced);
  const insertAt = list.findIndex((candidate) => candidate.seq > message.seq);
  if (insertAt < 0) list.push(message);
  else list.splice(insertAt, 0, message);
}

/**
 * An opened conversation's messages in one write (one per message was quadratic: 10,000 messages took 24 s). A
 * message that events already brought newer than the snapshot keeps its newer copy.
 */
function mergeSnapshot(existing: readonly Message[] | undefined, snapshot: readonly Message[]): Message[] {
  const newer = new Map<string, Message>();
  for (const message of existing ?? []) newer.set(message.id, message);
  const merged = snapshot.map((message) => {
    const current = newer.get(message.id);
    newer.delete(message.id);
    return current && current.updatedAt > message.updatedAt ? current : message;
  });
  merged.sort((left, right) => left.seq - right.seq);
  // Messages only events know of (written after the snapshot was read) stay too, where they continue its path; one
  // at a position the snapshot holds, or not following on from it, belongs to a path no longer on screen.
  const covered = new Set(merged.map((message) => message.seq));
  for (const message of [...newer.values()].sort((left, right) => left.seq - right.seq)) {
    if (covered.has(message.seq) || !continuesPath(merged, message)) continue;
    merged.push(message);
    covered.add(message.seq);
  }
  return merged.sort((left, right) => left.seq - right.seq);
}

/** Whether `message` follows on from the messages around it: its parent is the one just before it, when both say. */
function continuesPath(sorted: readonly Message[], message: Message): boolean {
  if (message.parentId === undefined) return true;
  const previous = sorted.findLast((candidate) => candidate.seq === message.seq - 1);
  return previous === undefined || previous.id === message.parentId;
}

/** Read from the raw records: walking 10,000 of them through the store's proxies is what made a big list slow. */
function refreshDerived(state: UiState): void {
  const conversations = Object.values(unwrap(state.conversations));
  const currentOrder = unwrap(state.conversationOrder);
  const order = conversations
    .slice()
    .sort((left, right) => right.updatedAt - left.updatedAt || left.id.localeCompare(right.id))
    .map((conversation) => conversation.id);
  if (order.length !== currentOrder.length || order.some((id, index) => currentOrder[index] !== id)) {
    state.conversationOrder = order;
  }
  const pending = conversations
    .filter((conversation) => conversation.runState === 'awaiting_input')
    .sort((left, right) => right.updatedAt - left.updatedAt || left.id.localeCompare(right.id));
  if (state.pendingQuestionCount !== pending.length) state.pendingQuestionCount = pending.length;
  const pendingKey = pending.map((conversation) => `${conversation.id}:${conversation.title}`).join('|');
  if (state.pendingKey !== pendingKey) state.pendingKey = pendingKey;
}

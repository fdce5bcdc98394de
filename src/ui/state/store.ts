import { createStore, produce } from 'solid-js/store';
import { forgetConversation, notePendingMessage, putConversation, putConversationSnapshot, refreshDerived } from './store-conversations';
import { earlierThanLoaded, forgetFinishedProgress, isBeforeLoaded, isRunningCall, keptForOpening, mergeSnapshot, upsertMessage } from './store-messages';
import { createInitialState, type UiEvent, type UiState } from './store-state';

export { createInitialState, type UiEvent, type UiState } from './store-state';

/**
 * The one reducer of the UI store. Meant to run on a `produce` draft (or a plain object in tests):
 * it mutates `state` and touches nothing else. Records arrive whole and replace what was there.
 */
export function applyEvent(state: UiState, event: UiEvent): void {
  if (!applyRecordEvent(state, event)) applyAppEvent(state, event);
}

/** Conversations and messages arriving, or going; false for any other event. */
function applyRecordEvent(state: UiState, event: UiEvent): boolean {
  switch (event.type) {
    case 'conversations-imported':
    case 'conversations-listed':
      putConversationSnapshot(state, event.conversations);
      state.conversationsLoaded = true;
      refreshDerived(state);
      return true;
    case 'conversation-upserted':
      putConversation(state, event.conversation);
      refreshDerived(state);
      return true;
    case 'conversation-opening':
      // Opened before: its list takes the events. Else they wait here for the snapshot (never opened, they were dropped).
      if (!state.messages[event.conversationId]) state.openingMessages[event.conversationId] ??= [];
      return true;
    case 'conversation-opened':
      putConversation(state, event.conversation, { snapshot: true });
      state.messages[event.conversation.id] = mergeSnapshot(state.messages[event.conversation.id] ?? state.openingMessages[event.conversation.id], event.messages);
      delete state.openingMessages[event.conversation.id];
      state.earlierMessages[event.conversation.id] = earlierThanLoaded(state.messages[event.conversation.id]!, event.messages, event.earlier ?? 0);
      refreshDerived(state);
      return true;
    case 'message-page-loaded': {
      const loaded = state.messages[event.conversationId];
      if (!loaded) return true;
      state.messages[event.conversationId] = mergeSnapshot(loaded, event.messages);
      state.earlierMessages[event.conversationId] = earlierThanLoaded(state.messages[event.conversationId]!, event.messages, event.earlier);
      return true;
    }
    case 'conversation-deleted':
      forgetConversation(state, event.conversationId);
      refreshDerived(state);
      return true;
    case 'message-upserted':
      if (notePendingMessage(state, event.message)) refreshDerived(state);
      // An old message that was not read yet stays unread: the loaded messages are the stored ones from some seq on.
      if (isBeforeLoaded(state, event.message)) return true;
      if (keptForOpening(state, event.message)) return true;
      upsertMessage(state, event.message);
      forgetFinishedProgress(state, event.message);
      return true;
    default:
      return false;
  }
}

/** The app's own state: the worker, settings and profiles, errors, MCP servers, sync, a call's progress. */
function applyAppEvent(state: UiState, event: UiEvent): void {
  switch (event.type) {
    case 'worker-ready':
      state.workerReady = true;
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

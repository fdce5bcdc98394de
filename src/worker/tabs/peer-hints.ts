import type { AppEvent } from '../../schema/events';
import type { ChangeFeed } from '../store/change-feed';
import type { IndexedDbConversationStore } from '../store/conversation-store';
import type { McpServers } from '../mcp/lazy-mcp-hub';
import type { RunManager } from '../runs/run-manager';
import type { SettingsStore } from '../settings/settings-store';
import type { PeerHint } from './peer-channel';

export interface PeerHintDeps {
  settings: SettingsStore;
  mcp: McpServers;
  store: IndexedDbConversationStore;
  runs: RunManager;
  feed: ChangeFeed;
  post(event: AppEvent): void;
}

/**
 * A peer said what changed: read it from IndexedDB, and tell this tab (through the feed) what is really stored. Its code
 * loads with the first hint (a first conversation in one tab has none); the stored settings' copy is dropped as a hint
 * arrives, before that (`peerHintHandler` in host.ts).
 */
export function peerHintReader({ settings, mcp, store, runs, feed, post }: PeerHintDeps) {
  return async (hint: PeerHint): Promise<void> => {
    if (hint.kind === 'settings') return post({ type: 'settings-changed', settings: await settings.getSettings() });
    if (hint.kind === 'profiles') return post({ type: 'profiles-changed', profiles: await settings.listProfiles() });
    if (hint.kind === 'mcp') return post({ type: 'mcp-servers-changed', servers: await mcp.reload() });
    if (hint.kind === 'list') return feed.publish({ imported: await store.listConversations(), source: 'remote', scope: 'document' });
    const { conversation, messages } = await store.readTogether(hint.conversationId, hint.messageIds);
    if (!conversation) return feed.publish({ removed: [hint.conversationId], source: 'remote', scope: 'document' });
    // Another tab runs it: notice at once if that tab dies (see RunManager.watch); or it waits inside a live run there
    // (an elicitation): notice if that tab dies too.
    if (conversation.runState === 'running' || (conversation.runState === 'awaiting_input' && hint.messageIds.length > 0)) runs.watch(conversation.id);
    feed.publish({ conversation, messages, source: 'remote', scope: 'document' });
  };
}


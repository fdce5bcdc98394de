import type { AppEvent } from '../../schema/events';
import type { Change, ChangeListener } from '../store/change-feed';
import type { PeerHint } from './peer-channel';

/** The most message ids one hint names (peer-channel.ts drops a longer list). */
const HINT_IDS = 50;

/**
 * Follows the change feed for the page and the other tabs: each change becomes this tab's events, and a change this
 * worker stored becomes one hint per conversation for the other tabs' workers, which re-read it (a change another tab
 * stored came from such a hint, and what only this tab shows is never hinted).
 */
export function pageEvents(post: (event: AppEvent) => void, broadcast: (hint: PeerHint) => void): ChangeListener {
  return (change) => {
    for (const event of eventsOf(change)) post(event);
    if (change.source === 'local' && change.scope === 'document') for (const hint of hintsOf(change)) broadcast(hint);
  };
}

function eventsOf(change: Change): AppEvent[] {
  if (change.imported) return [{ type: 'conversations-imported', conversations: change.imported }];
  const events: AppEvent[] = (change.removed ?? []).map((conversationId) => ({ type: 'conversation-deleted', conversationId }));
  if (change.conversation) events.push({ type: 'conversation-upserted', conversation: change.conversation });
  for (const message of change.messages ?? []) events.push({ type: 'message-upserted', message });
  return events;
}

function hintsOf(change: Change): PeerHint[] {
  if (change.imported) return [{ kind: 'list' }];
  const hints: PeerHint[] = (change.removed ?? []).map((conversationId) => ({ kind: 'conversation', conversationId, messageIds: [] }));
  const byConversation = new Map<string, string[]>();
  if (change.conversation) byConversation.set(change.conversation.id, []);
  for (const message of change.messages ?? []) byConversation.set(message.conversationId, [...(byConversation.get(message.conversationId) ?? []), message.id]);
  for (const [conversationId, ids] of byConversation) {
    if (ids.length === 0) hints.push({ kind: 'conversation', conversationId, messageIds: [] });
    for (let start = 0; start < ids.length; start += HINT_IDS) hints.push({ kind: 'conversation', conversationId, messageIds: ids.slice(start, start + HINT_IDS) });
  }
  return hints;
}

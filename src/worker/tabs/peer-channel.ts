import type { AppEvent } from '../../schema/events';

/**
 * What a worker tells other tabs' workers: only which records changed, never the records. Any same-origin page can
 * post on a BroadcastChannel, so a receiver re-reads what a hint names from its own IndexedDB and shows that; a forged
 * hint at most makes it read something again.
 */
export type PeerHint =
  | { kind: 'conversation'; conversationId: string; messageIds: string[] }
  | { kind: 'settings' }
  | { kind: 'profiles' }
  /** MCP servers were saved, removed or had a permission changed (each tab keeps its own connections). */
  | { kind: 'mcp' }
  /** Many conversations changed at once (an import): re-read the list. */
  | { kind: 'list' };

type PeerMessage = { kind: 'hint'; hint: PeerHint } | { kind: 'stop'; conversationId: string };

const MAX_IDS = 50;
const MAX_ID_LENGTH = 100;

/** The hint a committed change's event stands for; undefined for what is not stored (notices, local errors). */
export function hintFor(event: AppEvent): PeerHint | undefined {
  switch (event.type) {
    case 'conversation-upserted':
      return { kind: 'conversation', conversationId: event.conversation.id, messageIds: [] };
    case 'conversation-deleted':
      return { kind: 'conversation', conversationId: event.conversationId, messageIds: [] };
    case 'message-upserted':
      return { kind: 'conversation', conversationId: event.message.conversationId, messageIds: [event.message.id] };
    case 'settings-changed':
      return { kind: 'settings' };
    case 'profiles-changed':
      return { kind: 'profiles' };
    case 'conversations-imported':
      return { kind: 'list' };
    case 'mcp-servers-changed':
      return { kind: 'mcp' };
    default:
      return undefined;
  }
}

/** A received message, if it is a well-formed, small hint or stop; anything else is dropped. */
export function readPeerMessage(data: unknown): PeerMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as { kind?: unknown; conversationId?: unknown; hint?: unknown };
  if (message.kind === 'stop') return isId(message.conversationId) ? { kind: 'stop', conversationId: message.conversationId } : undefined;
  if (message.kind !== 'hint' || typeof message.hint !== 'object' || message.hint === null) return undefined;
  const hint = message.hint as { kind?: unknown; conversationId?: unknown; messageIds?: unknown };
  if (hint.kind === 'settings' || hint.kind === 'profiles' || hint.kind === 'list' || hint.kind === 'mcp') return { kind: 'hint', hint: { kind: hint.kind } };
  if (hint.kind !== 'conversation' || !isId(hint.conversationId)) return undefined;
  const ids = hint.messageIds;
  if (!Array.isArray(ids) || ids.length > MAX_IDS || !ids.every(isId)) return undefined;
  return { kind: 'hint', hint: { kind: 'conversation', conversationId: hint.conversationId, messageIds: [...ids] } };
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

interface PeerChannel {
  /** Tells the other tabs' workers what changed, so they re-read it for their UIs. */
  hint(hint: PeerHint): void;
  requestStop(conversationId: string): void;
  close(): void;
}

/** A BroadcastChannel between this origin's workers. */
export function openPeerChannel(name: string, handlers: { hint(hint: PeerHint): void; stop(conversationId: string): void }): PeerChannel {
  const channel = new BroadcastChannel(name);
  channel.addEventListener('message', (event: MessageEvent) => {
    const message = readPeerMessage(event.data);
    if (message?.kind === 'stop') handlers.stop(message.conversationId);
    else if (message?.kind === 'hint') handlers.hint(message.hint);
  });
  return {
    hint: (hint) => channel.postMessage({ kind: 'hint', hint } satisfies PeerMessage),
    requestStop: (conversationId) => channel.postMessage({ kind: 'stop', conversationId } satisfies PeerMessage),
    close: () => channel.close(),
  };
}

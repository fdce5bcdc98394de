import type { Fork, Message } from '../schema/records';

/**
 * A conversation is a tree of messages and what is on screen is one path through it (README, "Versions are branches, never copies"). A message's `seq` is its
 * position on its path, so the versions of one message share a seq; its `parentId` names the message before it. Where
 * a parent has several children the conversation keeps a fork (`Conversation.forks`) saying which one is on screen;
 * elsewhere a parent has one child. A branch is therefore a path, never a copy of messages.
 */

/** The parent id of a first message. */
export const ROOT_PARENT = '';

/**
 * The messages on the conversation's path, in order. `messages` are all of the conversation's, in any order. Without
 * forks the conversation is one line and every message is on it.
 */
export function pathOf(messages: readonly Message[], forks: readonly Fork[] | undefined): Message[] {
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  if (!forks?.length) return sorted;
  const children = childrenByParent(sorted);
  const selected = new Map(forks.map((fork) => [fork.parentId, fork.selectedId]));
  const path: Message[] = [];
  let parent = ROOT_PARENT;
  for (;;) {
    const candidates = children.get(parent);
    if (!candidates?.length) return path;
    const chosen = selected.get(parent);
    const next = candidates.find((candidate) => candidate.id === chosen) ?? candidates.at(-1)!;
    path.push(next);
    parent = next.id;
  }
}

/** Every message's children, oldest first, by parent id. Messages from before branches chain by position. */
export function childrenByParent(sorted: readonly Message[]): Map<string, Message[]> {
  const legacyAt = new Map<number, string>();
  for (const message of sorted) if (message.parentId === undefined) legacyAt.set(message.seq, message.id);
  const children = new Map<string, Message[]>();
  for (const message of sorted) {
    const parent = parentOf(message, legacyAt);
    const list = children.get(parent);
    if (list) list.push(message);
    else children.set(parent, [message]);
  }
  return children;
}

function parentOf(message: Message, legacyAt: ReadonlyMap<number, string>): string {
  if (message.parentId !== undefined) return message.parentId;
  return message.seq === 0 ? ROOT_PARENT : (legacyAt.get(message.seq - 1) ?? ROOT_PARENT);
}

/** The parent id a new message appended after `path` gets. */
export function parentForNext(path: readonly Message[]): string {
  return path.at(-1)?.id ?? ROOT_PARENT;
}

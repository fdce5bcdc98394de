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
function childrenByParent(sorted: readonly Message[]): Map<string, Message[]> {
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

/**
 * The forks once `child` is added as a new version beside `sibling` (both children of `parentId`), and selected.
 */
export function withNewVersion(forks: readonly Fork[] | undefined, parentId: string, sibling: string, child: string): Fork[] {
  const list = [...(forks ?? [])];
  const at = list.findIndex((fork) => fork.parentId === parentId);
  if (at >= 0) list[at] = { parentId, childIds: [...list[at]!.childIds, child], selectedId: child };
  else list.push({ parentId, childIds: [sibling, child], selectedId: child });
  return list;
}

/** The forks with `childId` selected among its siblings; undefined when it is not a version of anything. */
export function withSelected(forks: readonly Fork[] | undefined, childId: string): Fork[] | undefined {
  const at = forks?.findIndex((fork) => fork.childIds.includes(childId)) ?? -1;
  if (!forks || at < 0) return undefined;
  return forks.map((fork, index) => (index === at ? { ...fork, selectedId: childId } : fork));
}

/** Whether `forks` only names messages that exist, each fork's children are children of its parent, and a selection is one of them. */
export function forksProblem(messages: readonly Message[], forks: readonly Fork[] | undefined): string | undefined {
  if (!forks?.length) return undefined;
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  const children = childrenByParent(sorted);
  const seen = new Set<string>();
  for (const fork of forks) {
    if (seen.has(fork.parentId)) return `two forks name the parent "${fork.parentId}"`;
    seen.add(fork.parentId);
    const actual = new Set((children.get(fork.parentId) ?? []).map((message) => message.id));
    const missing = fork.childIds.find((id) => !actual.has(id));
    if (missing !== undefined) return `the fork of "${fork.parentId}" names "${missing}", which is not one of its children`;
    if (!fork.childIds.includes(fork.selectedId)) return `the fork of "${fork.parentId}" selects "${fork.selectedId}", which is not one of its versions`;
  }
  return undefined;
}

/**
 * Deleting the version `messageId`: it and every message below it (its subtree), and the forks after. The version is
 * removed from its fork (dropped when one version is left); when it was on screen, the version beside it takes its
 * place. Undefined when `messageId` is not a version (a message without siblings is not deleted this way).
 */
export function withoutVersion(messages: readonly Message[], forks: readonly Fork[] | undefined, messageId: string): { deleted: string[]; forks: Fork[] } | undefined {
  const fork = forks?.find((candidate) => candidate.childIds.includes(messageId));
  if (!forks || !fork) return undefined;
  const children = childrenByParent([...messages].sort((a, b) => a.seq - b.seq));
  const deleted: string[] = [];
  const stack = [messageId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    deleted.push(id);
    for (const child of children.get(id) ?? []) stack.push(child.id);
  }
  const gone = new Set(deleted);
  const at = fork.childIds.indexOf(messageId);
  const left = fork.childIds.filter((id) => id !== messageId);
  const selectedId = fork.selectedId === messageId ? left[Math.min(at, left.length - 1)]! : fork.selectedId;
  const next = forks.filter((candidate) => candidate !== fork && !gone.has(candidate.parentId));
  if (left.length > 1) next.push({ parentId: fork.parentId, childIds: left, selectedId });
  return { deleted, forks: next };
}

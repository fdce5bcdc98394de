import type { Fork, Message } from '../schema/records';
import { childrenByParent } from './branches';

// Changes to a conversation's versions (README, "Versions are branches, never copies") and the check of an import's
// forks: apart from branches.ts, whose path every read of a page takes, so the first screen loads none of them.

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

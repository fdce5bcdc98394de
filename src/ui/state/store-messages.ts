/** The UI store's messages of opened conversations: loaded pages, live upserts, snapshots merged with newer events. */

import type { Message } from '../../schema/records';
import { replaceInPlace } from './replace-in-place';
import { isStale, type UiState } from './store-state';

/**
 * How many stored messages are still unread before `loaded` once a page whose first message had `earlier` stored
 * messages before it was merged in: those of them already loaded are not (loaded messages are contiguous).
 */
export function earlierThanLoaded(loaded: readonly Message[], page: readonly Message[], earlier: number): number {
  const first = page[0]?.seq;
  if (first === undefined) return loaded.length > 0 ? 0 : earlier;
  let older = 0;
  for (const message of loaded) {
    if (message.seq >= first) break;
    older += 1;
  }
  return Math.max(0, earlier - older);
}

/** Whether `message` is one of the stored messages before the loaded ones, not read yet. */
export function isBeforeLoaded(state: UiState, message: Message): boolean {
  const first = state.messages[message.conversationId]?.[0];
  return (state.earlierMessages[message.conversationId] ?? 0) > 0 && first !== undefined && message.seq < first.seq;
}

/**
 * Keeps `message` for the conversation being opened, when its list is not there yet: its snapshot, read maybe before
 * the message was stored (a record replicated from another device, another tab's write), is merged with it. True
 * when kept so. Without it, the message was dropped and the snapshot lacked it: a question synced while its
 * conversation was opened never showed.
 */
export function keptForOpening(state: UiState, message: Message): boolean {
  const waiting = state.openingMessages[message.conversationId];
  if (!waiting || state.messages[message.conversationId]) return false;
  const index = waiting.findIndex((candidate) => candidate.id === message.id);
  if (index < 0) waiting.push(message);
  else if (waiting[index]!.updatedAt <= message.updatedAt) waiting[index] = message;
  return true;
}

/** Messages of conversations that were never opened are not kept: opening reads them whole. */
export function isRunningCall(state: UiState, conversationId: string, messageId: string, toolCallId: string): boolean {
  const message = state.messages[conversationId]?.find((candidate) => candidate.id === messageId);
  return message?.blocks.some((block) => block.type === 'tool_call' && block.toolCallId === toolCallId && block.status === 'running') ?? false;
}

/** Drops the progress of `message`'s tool calls that are no longer running. */
export function forgetFinishedProgress(state: UiState, message: Message): void {
  for (const block of message.blocks) {
    if (block.type === 'tool_call' && block.status !== 'running' && block.toolCallId in state.toolProgress) delete state.toolProgress[block.toolCallId];
  }
}

/** Puts a message in its place by `seq` in an opened conversation's list (ignored for one not opened). */
export function upsertMessage(state: UiState, message: Message, options?: { snapshot?: boolean }): void {
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
export function mergeSnapshot(existing: readonly Message[] | undefined, snapshot: readonly Message[]): Message[] {
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

import { pathOf, ROOT_PARENT } from '../../core/branches';
import { withNewVersion, withoutVersion, withSelected } from '../../core/branch-edits';
import { closeByStop, isPendingRequest } from '../../core/requests/requests';
import { closeQueuedCalls } from '../../core/run/run-repair';
import type { RunSnapshot } from '../../core/run/store';
import { WireError } from '../../schema/wire-error';
import type { Conversation, Message } from '../../schema/records';
import { allMessagesIn, notFound, transactRun, type StoreContext } from '../store/store-context';
import type { Transaction } from '../store/transaction';
import { copyAttachments, deleteAttachmentsOfMessages } from '../attachments/attachment-records';

/** A new version of a message on the path: another reply from the same history, or the user's message edited. */
export type NewVersion = { kind: 'regenerate'; messageId: string } | { kind: 'edit'; messageId: string; text: string };

/**
 * Versions and branches over IndexedDB (core/branches.ts): a new version of a message, and which version is on screen.
 * Each is one transaction, refused while a reply is being written. Leaving a branch in which a request waits for the
 * user is refused with `request_pending_in_branch` unless `discardPending` says the user agreed; its requests are then
 * closed as stopped, so nothing off screen still waits.
 */
export class BranchRecords {
  constructor(private readonly context: StoreContext) {}

  /**
   * Adds the new version as a sibling of `messageId` and selects it; the old one stays, reachable by its version switch.
   * A regenerated reply is stored empty and streaming, and the run that follows writes it; an edited message is stored
   * whole, and the run answers it. Returns the run to start from.
   */
  async addVersion(conversationId: string, version: NewVersion, options: { discardPending?: boolean } = {}): Promise<{ conversation: Conversation; message: Message; run: RunSnapshot }> {
    const now = this.context.now();
    const change = await transactRun(this.context, async (transaction) => {
      const { conversation, path } = await this.readPath(transaction, conversationId);
      const at = path.findIndex((message) => message.id === version.messageId);
      if (at < 0) throw notFound('message', version.messageId);
      const target = path[at]!;
      const expected = version.kind === 'regenerate' ? 'assistant' : 'user';
      if (target.role !== expected) {
        throw new WireError({ code: 'invalid_command', reason: 'malformed_command', message: version.kind === 'regenerate' ? 'Only a reply can be regenerated.' : 'Only your own message can be edited.', field: 'messageId' });
      }
      const closed = closeRequestsFrom(path, at, now, options.discardPending === true);
      const parentId = at === 0 ? ROOT_PARENT : path[at - 1]!.id;
      const message: Message =
        version.kind === 'regenerate'
          ? { id: this.context.newId(), conversationId, seq: target.seq, parentId, role: 'assistant', blocks: [], status: 'streaming', createdAt: now, updatedAt: now }
          : { id: this.context.newId(), conversationId, seq: target.seq, parentId, role: 'user', blocks: [{ type: 'text', text: version.text }], status: 'complete', createdAt: now, updatedAt: now };
      if (version.kind === 'edit' && target.attachments?.length) {
        // An edited message keeps its files: the new version holds copies (new ids), so deleting either version
        // leaves the other's files in place.
        message.attachments = target.attachments.map((meta) => ({ ...meta, id: this.context.newId() }));
        await copyAttachments(transaction, target.attachments, message.attachments, message);
      }
      const next: Conversation = { ...conversation, forks: withNewVersion(conversation.forks, parentId, target.id, message.id), runState: 'running', updatedAt: now };
      delete next.runError;
      for (const record of [...closed, message]) await transaction.objectStore('messages').put(record);
      await transaction.objectStore('conversations').put(next);
      return { conversation: next, message, history: [...path.slice(0, at), message] };
    }, ['attachments']);
    // Only the new version is told: the closed requests belong to a branch no longer on screen.
    this.context.listener.committed({ conversation: change.conversation, messages: [change.message] });
    return { conversation: change.conversation, message: change.message, run: { conversation: change.conversation, history: change.history } };
  }

  /**
   * Puts the version `messageId` on screen: the path follows it, and below it the versions chosen there before. Its
   * parent must be on the path. Tells the new path from that version on.
   */
  async selectVersion(conversationId: string, messageId: string, options: { discardPending?: boolean } = {}): Promise<{ conversation: Conversation; messages: Message[] }> {
    const now = this.context.now();
    const change = await transactRun(this.context, async (transaction) => {
      const { conversation, all, path } = await this.readPath(transaction, conversationId);
      const forks = withSelected(conversation.forks, messageId);
      const fork = forks?.find((candidate) => candidate.childIds.includes(messageId));
      const at = fork ? (fork.parentId === ROOT_PARENT ? 0 : path.findIndex((message) => message.id === fork.parentId) + 1) : 0;
      if (!forks || !fork || (fork.parentId !== ROOT_PARENT && at === 0)) throw notFound('message', messageId);
      const closed = closeRequestsFrom(path, at, now, options.discardPending === true);
      const byId = new Map(closed.map((message) => [message.id, message]));
      const nextPath = pathOf(all.map((message) => byId.get(message.id) ?? message), forks);
      const last = nextPath.at(-1);
      const next: Conversation = { ...conversation, forks, runState: last?.status === 'interrupted' ? 'interrupted' : 'idle', updatedAt: now };
      delete next.runError;
      for (const record of closed) await transaction.objectStore('messages').put(record);
      await transaction.objectStore('conversations').put(next);
      return { conversation: next, messages: nextPath.slice(at) };
    });
    this.context.listener.committed(change);
    return change;
  }

  /**
   * Deletes the version `messageId` and everything after it in its branch, in one transaction; the other versions stay.
   * When it was on screen, the version beside it takes its place (and the run state follows that path's end).
   */
  async deleteVersion(conversationId: string, messageId: string): Promise<{ conversation: Conversation; messages: Message[] }> {
    const now = this.context.now();
    const change = await transactRun(this.context, async (transaction) => {
      const { conversation, all, path } = await this.readPath(transaction, conversationId);
      const removal = withoutVersion(all, conversation.forks, messageId);
      if (!removal) throw notFound('message', messageId);
      const gone = new Set(removal.deleted);
      const onScreen = path.findIndex((message) => gone.has(message.id));
      const kept = all.filter((message) => !gone.has(message.id));
      const nextPath = pathOf(kept, removal.forks);
      const next: Conversation = { ...conversation, updatedAt: now };
      if (removal.forks.length > 0) next.forks = removal.forks;
      else delete next.forks;
      if (onScreen >= 0) {
        // What waited in the deleted branch is gone with it; the path shown now decides the state.
        next.runState = nextPath.at(-1)?.status === 'interrupted' ? 'interrupted' : 'idle';
        delete next.runError;
      }
      for (const id of removal.deleted) await transaction.objectStore('messages').delete(id);
      // The files of the deleted messages go with them.
      await deleteAttachmentsOfMessages(transaction, removal.deleted);
      await transaction.objectStore('conversations').put(next);
      return { conversation: next, messages: onScreen >= 0 ? nextPath.slice(onScreen) : [], removedMessages: removal.deleted };
    }, ['attachments']);
    const { removedMessages, ...shown } = change;
    this.context.listener.committed(change);
    return shown;
  }

  private async readPath(transaction: Transaction, conversationId: string) {
    const [conversation, all] = await Promise.all([transaction.objectStore('conversations').get(conversationId), allMessagesIn(transaction, conversationId)]);
    if (!conversation) throw notFound('conversation', conversationId);
    if (conversation.runState === 'running') throw new WireError({ code: 'busy', reason: 'run_in_progress', message: 'A reply is still being written. Stop it first, or wait for it to finish.' });
    return { conversation, all, path: pathOf(all, conversation.forks) };
  }
}

/**
 * The messages of `path` from `from` on whose requests for the user are closed as stopped (and queued calls closed),
 * changed; refused with `request_pending_in_branch` when one waits and the user has not agreed to leave it.
 */
function closeRequestsFrom(path: readonly Message[], from: number, now: number, discard: boolean): Message[] {
  const changed: Message[] = [];
  for (const message of path.slice(from)) {
    let next = message;
    for (const block of message.blocks) {
      if (!isPendingRequest(block)) continue;
      if (!discard) throw new WireError({ code: 'invalid_state', reason: 'request_pending_in_branch', message: 'A request for you waits later in this branch. Leaving it closes the request.' });
      next = closeByStop(next, block, now);
    }
    next = closeQueuedCalls(next, now) ?? next;
    if (next !== message) changed.push(next);
  }
  return changed;
}

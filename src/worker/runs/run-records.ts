import { closeByChat, closeByStop, isPendingRequest } from '../../core/requests/requests';
import type { DeviceRef } from '../../schema/sync/device';
import { parentForNext } from '../../core/branches';
import { closeQueuedCalls, hasPendingElicitation, repairDeadRun } from '../../core/run/run-repair';
import type { RunChange, RunSnapshot } from '../../core/run/store';
import { INTERRUPTED_TOOL_TEXT } from '../../core/tools/tool-outcomes';
import { WireError } from '../../schema/wire-error';
import type { Conversation, Message, RunState } from '../../schema/records';
import { isUntitled } from '../../schema/conversation-title';
import { afterWrite, messagesIn, notFound, RUN_STORES, transactRun, type StoreContext } from '../store/store-context';
import { commitWith, inTransaction, type Transaction } from '../store/transaction';
import { readConfigGeneration } from '../settings/stored-config';
import { putAttachments, type PreparedAttachment } from '../attachments/attachment-records';
import { visibleFileName } from '../../schema/attachments/file-name';

/**
 * A conversation's run state over IndexedDB: read for a run, started by a user message, changed by the loop's steps,
 * moved, stopped and repaired. Every method is one transaction that awaits nothing but IndexedDB requests.
 */
export class RunRecords {
  constructor(private readonly context: StoreContext) {}

  async readRun(conversationId: string): Promise<RunSnapshot | undefined> {
    const transaction = this.context.database.transaction(RUN_STORES, 'readonly');
    const [conversation, history, generation] = await Promise.all([
      transaction.objectStore('conversations').get(conversationId),
      messagesIn(transaction, conversationId),
      readConfigGeneration(transaction),
    ]);
    this.context.listener.sawConfigGeneration?.(generation);
    return conversation ? { conversation, history } : undefined;
  }

  async applyRun(conversationId: string, change: RunChange, messages: Message[]): Promise<Conversation | undefined> {
    const now = this.context.now();
    const conversation = await transactRun(this.context, async (transaction) => {
      const stored = await transaction.objectStore('conversations').get(conversationId);
      if (!stored) return undefined;
      const next: Conversation = { ...stored, runState: change.runState, updatedAt: now, completedSteps: stored.completedSteps + (change.countStep ? 1 : 0) };
      if (change.runError) next.runError = change.runError;
      else delete next.runError;
      // A step's result is committed before the next model request: the commit is asked for with the writes (see commitWith).
      await commitWith(transaction, [...messages.map((message) => transaction.objectStore('messages').put(message)), transaction.objectStore('conversations').put(next)]);
      return next;
    });
    if (conversation) this.context.listener.committed({ conversation, messages });
    return conversation;
  }

  /**
   * Appends a user message and marks the conversation running. A pending question is resolved as answered in chat,
   * in the same transaction. Refused while a run is going. The message's files (checked before) are written in the same
   * transaction: the message is never stored without them, nor they without it.
   */
  async appendUserMessage(
    conversationId: string,
    text: string,
    defaultProfileId: string,
    files: readonly PreparedAttachment[] = [],
    options: { messageId?: string; device?: DeviceRef } = {},
  ): Promise<{ conversation: Conversation; message: Message; run: RunSnapshot }> {
    const now = this.context.now();
    const message: Message = { id: options.messageId ?? this.context.newId(), conversationId, seq: 0, role: 'user', blocks: [{ type: 'text', text }], status: 'complete', createdAt: now, updatedAt: now };
    if (files.length > 0) message.attachments = files.map((file) => file.meta);
    const change = await transactRun(this.context, async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation) throw notFound('conversation', conversationId);
      // A message proposed by another device carries its id: applied twice (a replayed proposal), it is sent once.
      if (options.messageId && (await transaction.objectStore('messages').get(options.messageId))) {
        throw new WireError({ code: 'invalid_state', reason: 'already_sent', message: 'This message was already sent.' });
      }
      if (conversation.runState === 'running') throw new WireError({ code: 'busy', reason: 'run_in_progress', message: 'A reply is still being written. Stop it first, or wait for it to finish.' });
      const messages = await messagesIn(transaction, conversationId);
      if (hasPendingElicitation(messages)) {
        throw new WireError({ code: 'busy', reason: 'elicitation_pending', message: 'A tool is waiting for your answer in the form above. Submit, decline or cancel it first, or press Stop.' });
      }
      message.seq = (messages.at(-1)?.seq ?? -1) + 1;
      message.parentId = parentForNext(messages);
      const written: Message[] = [];
      for (const stored of messages) {
        // A reply in chat answers whatever was asked: questions, approvals (the call does not run), Run again / Skip.
        let next = stored;
        for (const block of stored.blocks) {
          if (!isPendingRequest(block)) continue;
          next = closeByChat(next, block, now, message.id, options.device);
        }
        next = closeQueuedCalls(next, now) ?? next;
        if (next !== stored) written.push(next);
      }
      const isFirst = !messages.some((stored) => stored.role === 'user');
      const next: Conversation = {
        ...conversation,
        runState: 'running',
        updatedAt: now,
        title: isFirst && isUntitled(conversation.title) ? titleFrom(text || files.map((file) => visibleFileName(file.meta.name)).join(', ')) : conversation.title,
        // Stored before profiles were pinned: pin it now, to the profile it has been using.
        profileId: conversation.profileId ?? defaultProfileId,
      };
      delete next.draft; // sent
      delete next.runError;
      written.push(message);
      for (const record of written) await transaction.objectStore('messages').put(record);
      await putAttachments(transaction, conversationId, message.id, files);
      await transaction.objectStore('conversations').put(next);
      return { conversation: next, messages: written, history: afterWrite(messages, written) };
    }, files.length > 0 ? ['attachments'] : []);
    this.context.listener.committed({ conversation: change.conversation, messages: change.messages });
    return { conversation: change.conversation, message, run: { conversation: change.conversation, history: change.history } };
  }

  /**
   * Moves a conversation from one of `from` to `to`, in one transaction; a streaming message becomes `messageStatus`.
   * Returns undefined (and writes nothing) when the conversation is not in one of `from`.
   */
  async transition(conversationId: string, from: RunState[], to: RunState, messageStatus: Message['status'] = 'interrupted'): Promise<Conversation | undefined> {
    const now = this.context.now();
    return this.writeChange(async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation || !from.includes(conversation.runState)) return undefined;
      const next: Conversation = { ...conversation, runState: to, updatedAt: now };
      if (to === 'idle' || to === 'running') delete next.runError;
      const messages: Message[] = [];
      for (const message of await messagesIn(transaction, conversationId)) {
        if (message.status !== 'streaming') continue;
        messages.push({ ...message, status: messageStatus, updatedAt: now });
      }
      return putChange(transaction, next, messages);
    });
  }

  /**
   * Stop for a conversation that no run of this worker holds, as ONE compare-and-set transaction: pending questions
   * are resolved as stopped, a reply left interrupted (or streaming) becomes stopped, and the conversation idle. Writes
   * nothing (undefined) when it is idle or running already.
   */
  async stopRun(conversationId: string): Promise<Conversation | undefined> {
    const now = this.context.now();
    return this.writeChange(async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation) throw notFound('conversation', conversationId);
      if (!(['awaiting_input', 'interrupted', 'waiting_network', 'error'] as RunState[]).includes(conversation.runState)) return undefined;
      const messages: Message[] = [];
      for (const message of await messagesIn(transaction, conversationId)) {
        let next = message;
        for (const block of message.blocks) {
          if (isPendingRequest(block)) next = closeByStop(next, block, now);
        }
        next = closeQueuedCalls(next, now) ?? next;
        // Nobody runs this conversation, so a call still marked running died with its tab: say so, never re-run it.
        if (next.blocks.some((block) => block.type === 'tool_call' && block.status === 'running')) {
          next = { ...next, updatedAt: now, blocks: next.blocks.map((block) => (block.type === 'tool_call' && block.status === 'running' ? { ...block, status: 'interrupted' as const, result: `${INTERRUPTED_TOOL_TEXT} The user then stopped the run.` } : block)) };
        }
        if (next.status === 'streaming' || next.status === 'interrupted') next = { ...next, status: 'stopped', updatedAt: now };
        if (next !== message) messages.push(next);
      }
      const next: Conversation = { ...conversation, runState: 'idle', updatedAt: now };
      delete next.runError;
      return putChange(transaction, next, messages);
    });
  }

  /**
   * Repairs a conversation whose run died (its lock is free, the caller holds it): a `running` conversation becomes
   * interrupted, and see repairDeadRun for its tool calls and elicitations. A call cut off while running makes it wait
   * for the user's "Run again or Skip". Writes nothing (undefined) when there is nothing to repair.
   */
  async repairDeadRun(conversationId: string): Promise<Conversation | undefined> {
    const now = this.context.now();
    return this.writeChange(async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation || (conversation.runState !== 'running' && conversation.runState !== 'awaiting_input')) return undefined;
      const messages = await messagesIn(transaction, conversationId);
      const repaired = repairDeadRun(messages, now);
      const streaming = messages.filter((message) => message.status === 'streaming');
      if (conversation.runState === 'awaiting_input' && repaired.changed.length === 0) return undefined;
      const byId = new Map(repaired.changed.map((message) => [message.id, message]));
      for (const message of streaming) byId.set(message.id, { ...(byId.get(message.id) ?? message), status: 'interrupted', updatedAt: now });
      const pendingLeft = [...messages.map((message) => byId.get(message.id) ?? message)].some((message) => message.pendingRequestId !== undefined);
      const runState: RunState = repaired.asks || pendingLeft ? 'awaiting_input' : 'interrupted';
      const next: Conversation = { ...conversation, runState, updatedAt: now };
      delete next.runError;
      return putChange(transaction, next, [...byId.values()]);
    });
  }

  /**
   * One transaction over a conversation and its messages; `body` writes a change (putChange) or nothing (undefined).
   * The listener hears of what was written; the conversation as written, or undefined.
   */
  private async writeChange(body: (transaction: Transaction) => Promise<{ conversation: Conversation; messages: Message[] } | undefined>): Promise<Conversation | undefined> {
    const change = await inTransaction(this.context.database, ['conversations', 'messages'], body);
    if (!change) return undefined;
    this.context.listener.committed(change);
    return change.conversation;
  }
}

/** Writes a conversation and its changed messages inside `transaction`; the change, for the listener. */
async function putChange(transaction: Transaction, conversation: Conversation, messages: Message[]): Promise<{ conversation: Conversation; messages: Message[] }> {
  for (const message of messages) await transaction.objectStore('messages').put(message);
  await transaction.objectStore('conversations').put(conversation);
  return { conversation, messages };
}

function titleFrom(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim()) ?? text;
  const trimmed = line.trim();
  return trimmed.length > 60 ? `${trimmed.slice(0, 57)}…` : trimmed;
}

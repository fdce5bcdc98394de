import { findRequest, isPendingRequest, requestIdOf, resolveByChat, resolveByStop, resolvedOutcomeOf, resolveRequest, withRequest, type RequestBlock, type RequestResolution, type ResolveContext } from '../core/requests';
import { closeQueuedCalls, hasPendingElicitation, repairDeadRun } from '../core/run-repair';
import type { ConversationStore, RecordChange, RunChange, RunSnapshot } from '../core/store';
import { INTERRUPTED_TOOL_TEXT } from '../core/tool-outcomes';
import type { QuestionRequestBlock } from '../schema/blocks';
import { WireError, type PendingRequest } from '../schema/protocol';
import type { QuestionDraft } from '../schema/question';
import type { Conversation, ConversationExport, Message, RunState } from '../schema/records';
import { importInChunks } from './conversation-import';
import { conversationSizes } from './storage-usage';
import type { ImportRepair } from '../schema/protocol';
import type { ConversationSizes, MessagePage } from '../schema/protocol';
import type { ParleyDatabase } from './database';
import { inTransaction, type ReadTransaction, type Stores, type Transaction } from './transaction';
import { readConfigGeneration } from './stored-config';

export const DEFAULT_TITLE = 'New conversation';


/** Told after every committed change, so the worker can emit events to its UI and to other tabs. */
export interface StoreListener {
  changed(change: RecordChange): void;
  deleted(conversationId: string): void;
  /** Many conversations arrived at once (an import): one notice for all, not one per conversation. */
  imported(conversations: Conversation[]): void;
  /** A transaction a model step may follow read the stored config generation (see StoredConfig.observe). */
  sawConfigGeneration?(generation: number): void;
}

/**
 * The scope of every transaction a model step may follow (a run's start, an answer's compare-and-set, the loop's writes):
 * it includes `settings` to read the config generation alongside, so the step's cached config is checked for free.
 */
const RUN_STORES: Stores = ['conversations', 'messages', 'settings'];

/** Where a request is: its conversation, message and id. */
export interface RequestTarget {
  conversationId: string;
  messageId: string;
  requestId: string;
}

/**
 * Conversations and messages over IndexedDB. Every method is one transaction that awaits nothing but IndexedDB
 * requests; a thrown error aborts it, so a failed command writes nothing.
 */
export class IndexedDbConversationStore implements ConversationStore {
  constructor(
    private readonly database: ParleyDatabase,
    private readonly listener: StoreListener,
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {}

  getConversation(conversationId: string): Promise<Conversation | undefined> {
    return this.database.get('conversations', conversationId);
  }

  async readRun(conversationId: string): Promise<RunSnapshot | undefined> {
    const transaction = this.database.transaction(RUN_STORES, 'readonly');
    const [conversation, history, generation] = await Promise.all([
      transaction.objectStore('conversations').get(conversationId),
      this.messagesIn(transaction, conversationId),
      readConfigGeneration(transaction),
    ]);
    this.listener.sawConfigGeneration?.(generation);
    return conversation ? { conversation, history } : undefined;
  }

  getMessage(messageId: string): Promise<Message | undefined> {
    return this.database.get('messages', messageId);
  }

  listMessages(conversationId: string): Promise<Message[]> {
    const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
    return this.database.getAllFromIndex('messages', 'by-conversation', range);
  }

  /**
   * The newest `limit` messages with `fromSeq <= seq < beforeSeq`, oldest first, and how many stored messages come
   * before them. One readonly transaction: a key cursor finds where the page starts, one getAll reads it.
   */
  async listMessagePage(conversationId: string, options: { beforeSeq?: number; fromSeq?: number; limit: number }): Promise<MessagePage> {
    const index = this.database.transaction('messages', 'readonly').store.index('by-conversation');
    const range = IDBKeyRange.bound([conversationId, options.fromSeq ?? 0], [conversationId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER], false, true);
    let cursor = await index.openKeyCursor(range, 'prev');
    if (cursor && options.limit > 1) cursor = await cursor.advance(options.limit - 1);
    const firstSeq = cursor ? (cursor.key[1] as number) : (options.fromSeq ?? 0);
    const upper = options.beforeSeq ?? Number.MAX_SAFE_INTEGER;
    const [messages, earlier] = await Promise.all([
      index.getAll(IDBKeyRange.bound([conversationId, firstSeq], [conversationId, upper], false, true)),
      firstSeq > 0 ? index.count(IDBKeyRange.bound([conversationId, 0], [conversationId, firstSeq], false, true)) : 0,
    ]);
    return { messages, earlier };
  }

  /** The newest page of a conversation, reaching back far enough to hold every message with a pending request. */
  async listNewestMessages(conversationId: string, limit: number): Promise<MessagePage> {
    const page = await this.listMessagePage(conversationId, { limit });
    const pending = (await this.database.getAllFromIndex('messages', 'by-pending-request')).filter((message) => message.conversationId === conversationId);
    const oldestPending = Math.min(...pending.map((message) => message.seq));
    const firstSeq = page.messages[0]?.seq ?? 0;
    if (oldestPending >= firstSeq) return page;
    return this.listMessagePage(conversationId, { fromSeq: oldestPending, beforeSeq: Number.MAX_SAFE_INTEGER, limit: Number.MAX_SAFE_INTEGER });
  }

  /** The seqs of messages whose text blocks contain `query`, case-insensitively, oldest first; at most `limit`. */
  async searchMessages(conversationId: string, query: string, limit: number): Promise<{ seqs: number[]; truncated: boolean }> {
    const needle = query.toLocaleLowerCase();
    const messages = await this.listMessages(conversationId);
    const seqs: number[] = [];
    for (const message of messages) {
      const found = message.blocks.some((block) => (block.type === 'text' || block.type === 'reasoning') && block.text.toLocaleLowerCase().includes(needle));
      if (!found) continue;
      if (seqs.length === limit) return { seqs, truncated: true };
      seqs.push(message.seq);
    }
    return { seqs, truncated: false };
  }

  async listConversations(): Promise<Conversation[]> {
    return (await this.database.getAllFromIndex('conversations', 'by-updated')).reverse();
  }

  /**
   * Every conversation with its messages, read in ONE transaction so an export taken while a reply streams is a
   * snapshot of one moment.
   */
  async exportAll(): Promise<Array<{ conversation: Conversation; messages: Message[] }>> {
    const transaction = this.database.transaction(['conversations', 'messages'], 'readonly');
    const [conversations, messages] = await Promise.all([
      transaction.objectStore('conversations').index('by-updated').getAll(),
      transaction.objectStore('messages').index('by-conversation').getAll(),
    ]);
    const byConversation = new Map<string, Message[]>();
    for (const message of messages) {
      const list = byConversation.get(message.conversationId) ?? [];
      list.push(message);
      byConversation.set(message.conversationId, list);
    }
    return conversations.reverse().map((conversation) => ({ conversation, messages: byConversation.get(conversation.id) ?? [] }));
  }

  /** Every pending request of every conversation (questions, approvals, elicitations), from one index. */
  async listPendingRequests(): Promise<PendingRequest[]> {
    const transaction = this.database.transaction(['messages', 'conversations'], 'readonly');
    const messages = await transaction.objectStore('messages').index('by-pending-request').getAll();
    const pending: PendingRequest[] = [];
    for (const message of messages) {
      const conversation = await transaction.objectStore('conversations').get(message.conversationId);
      const block = findRequest(message, message.pendingRequestId ?? '');
      if (!conversation || !block || !isPendingRequest(block)) continue;
      const where = { conversationId: conversation.id, conversationTitle: conversation.title, messageId: message.id, requestId: requestIdOf(block)! };
      if (block.type === 'question_request') pending.push({ ...where, kind: 'question', questions: block.questions });
      else if (block.type === 'tool_call') pending.push({ ...where, kind: 'approval', toolName: block.toolName, approval: block.approval });
      else pending.push({ ...where, kind: 'elicitation', serverName: block.serverName, message: block.message });
    }
    return pending;
  }

  async write(change: RecordChange, options?: { ifExists?: boolean }): Promise<boolean> {
    const conversationId = change.conversation?.id ?? change.messages?.[0]?.conversationId;
    const written = await this.transact(['conversations', 'messages'], async (transaction) => {
      if (options?.ifExists && conversationId !== undefined && !(await transaction.objectStore('conversations').get(conversationId))) return false;
      if (change.conversation) await transaction.objectStore('conversations').put(change.conversation);
      for (const message of change.messages ?? []) await transaction.objectStore('messages').put(message);
      return true;
    });
    if (written) this.listener.changed(change);
    return written;
  }

  async applyRun(conversationId: string, change: RunChange, messages: Message[]): Promise<Conversation | undefined> {
    const now = this.now();
    const conversation = await this.transactRun(async (transaction) => {
      const stored = await transaction.objectStore('conversations').get(conversationId);
      if (!stored) return undefined;
      const next: Conversation = { ...stored, runState: change.runState, updatedAt: now, completedSteps: stored.completedSteps + (change.countStep ? 1 : 0) };
      if (change.runError) next.runError = change.runError;
      else delete next.runError;
      await Promise.all([...messages.map((message) => transaction.objectStore('messages').put(message)), transaction.objectStore('conversations').put(next)]);
      return next;
    });
    if (conversation) this.listener.changed({ conversation, messages });
    return conversation;
  }

  /**
   * A new conversation, pinned to `profileId`: a later change of the default never moves it to another provider. An
   * existing id is returned as it is. Other conversations that were never used (no message, no draft, untitled, idle)
   * are removed in the same transaction, so clicking "New conversation" does not pile up empty ones.
   */
  async createConversation(title: string | undefined, profileId: string, conversationId?: string): Promise<Conversation> {
    const now = this.now();
    const fresh: Conversation = { id: conversationId ?? this.newId(), title: title || DEFAULT_TITLE, createdAt: now, updatedAt: now, runState: 'idle', completedSteps: 0, profileId };
    const result = await this.transact(['conversations', 'messages'], async (transaction) => {
      const existing = await transaction.objectStore('conversations').get(fresh.id);
      if (existing) return { conversation: existing, created: false, removed: [] as string[] };
      const removed: string[] = [];
      for (const candidate of await transaction.objectStore('conversations').getAll()) {
        if (candidate.runState !== 'idle' || candidate.title !== DEFAULT_TITLE || candidate.draft) continue;
        const range = IDBKeyRange.bound([candidate.id, 0], [candidate.id, Number.MAX_SAFE_INTEGER]);
        if ((await transaction.objectStore('messages').index('by-conversation').count(range)) > 0) continue;
        await transaction.objectStore('conversations').delete(candidate.id);
        removed.push(candidate.id);
      }
      await transaction.objectStore('conversations').put(fresh);
      return { conversation: fresh, created: true, removed };
    });
    for (const id of result.removed) this.listener.deleted(id);
    if (result.created) this.listener.changed({ conversation: result.conversation });
    return result.conversation;
  }

  /** Stores the composer's unsent text on the conversation (without touching its place in the list). */
  async saveComposerDraft(conversationId: string, text: string): Promise<void> {
    const conversation = await this.transact(['conversations'], async (transaction) => {
      const stored = await transaction.objectStore('conversations').get(conversationId);
      if (!stored) throw notFound('conversation', conversationId);
      if ((stored.draft ?? '') === text) return undefined;
      const next: Conversation = { ...stored };
      if (text) next.draft = text;
      else delete next.draft;
      await transaction.objectStore('conversations').put(next);
      return next;
    });
    if (conversation) this.listener.changed({ conversation });
  }

  async updateConversation(conversationId: string, update: (conversation: Conversation) => Conversation): Promise<Conversation> {
    const conversation = await this.transact(['conversations'], async (transaction) => {
      const stored = await transaction.objectStore('conversations').get(conversationId);
      if (!stored) throw notFound('conversation', conversationId);
      const next = update(stored);
      await transaction.objectStore('conversations').put(next);
      return next;
    });
    this.listener.changed({ conversation });
    return conversation;
  }

  /** Writes an export's conversations in chunks of whole conversations (see importInChunks); one notice at the end. */
  async importConversations(file: ConversationExport, knownProfileIds: ReadonlySet<string>): Promise<{ imported: Conversation[]; skipped: number; repairs: ImportRepair[] }> {
    const result = await importInChunks(this.database, file, knownProfileIds, this.now(), (conversations) => this.listener.imported(conversations));
    return { imported: result.imported.map((entry) => entry.conversation), skipped: result.skipped, repairs: result.repairs };
  }

  /** The largest conversations by approximate stored size, and the total (see conversationSizes). */
  conversationSizes(limit: number): Promise<ConversationSizes> {
    return conversationSizes(this.database, limit);
  }

  async deleteConversation(conversationId: string): Promise<void> {
    await this.transact(['conversations', 'messages'], async (transaction) => {
      if (!(await transaction.objectStore('conversations').get(conversationId))) throw notFound('conversation', conversationId);
      await transaction.objectStore('conversations').delete(conversationId);
      const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
      const keys = await transaction.objectStore('messages').index('by-conversation').getAllKeys(range);
      for (const key of keys) await transaction.objectStore('messages').delete(key);
    });
    this.listener.deleted(conversationId);
  }

  /**
   * Appends a user message and marks the conversation running. A pending question is resolved as answered in chat,
   * in the same transaction. Refused while a run is going.
   */
  async appendUserMessage(conversationId: string, text: string, defaultProfileId: string): Promise<{ conversation: Conversation; message: Message; run: RunSnapshot }> {
    const now = this.now();
    const message: Message = { id: this.newId(), conversationId, seq: 0, role: 'user', blocks: [{ type: 'text', text }], status: 'complete', createdAt: now, updatedAt: now };
    const change = await this.transactRun(async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation) throw notFound('conversation', conversationId);
      if (conversation.runState === 'running') throw new WireError({ code: 'busy', reason: 'run_in_progress', message: 'A reply is still being written. Stop it first, or wait for it to finish.' });
      const messages = await this.messagesIn(transaction, conversationId);
      if (hasPendingElicitation(messages)) {
        throw new WireError({ code: 'busy', reason: 'elicitation_pending', message: 'A tool is waiting for your answer in the form above. Submit, decline or cancel it first, or press Stop.' });
      }
      message.seq = (messages.at(-1)?.seq ?? -1) + 1;
      const written: Message[] = [];
      for (const stored of messages) {
        // A reply in chat answers whatever was asked: questions, approvals (the call does not run), Run again / Skip.
        let next = stored;
        for (const block of stored.blocks) {
          if (isPendingRequest(block)) next = withRequest(next, resolveByChat(block as RequestBlock, now, message.id), now);
        }
        next = closeQueuedCalls(next, now) ?? next;
        if (next !== stored) written.push(next);
      }
      const isFirst = !messages.some((stored) => stored.role === 'user');
      const next: Conversation = {
        ...conversation,
        runState: 'running',
        updatedAt: now,
        title: isFirst && conversation.title === DEFAULT_TITLE ? titleFrom(text) : conversation.title,
        // Stored before profiles were pinned: pin it now, to the profile it has been using.
        profileId: conversation.profileId ?? defaultProfileId,
      };
      delete next.draft; // sent
      delete next.runError;
      written.push(message);
      for (const record of written) await transaction.objectStore('messages').put(record);
      await transaction.objectStore('conversations').put(next);
      return { conversation: next, messages: written, history: afterWrite(messages, written) };
    });
    this.listener.changed({ conversation: change.conversation, messages: change.messages });
    return { conversation: change.conversation, message, run: { conversation: change.conversation, history: change.history } };
  }

  /**
   * Resolves a pending request exactly once (compare-and-set): a second resolution writes nothing and fails with
   * `already_resolved` carrying the first outcome. Params (answers, edited arguments, a form's content) are checked
   * against what the request asked for before anything is written. `run` is the conversation as it now stands, read in
   * the same transaction, for the run that goes on (the caller holds its lock, so nobody else changes it meanwhile).
   * With `noLiveRun`, an elicitation (which only a live run can receive) is refused with `elicitation_dead`, unwritten.
   */
  async resolveRequest(
    target: RequestTarget,
    resolution: RequestResolution,
    checks: Omit<ResolveContext, 'now'>,
    options: { noLiveRun?: boolean } = {},
  ): Promise<{ conversation: Conversation; message: Message; block: RequestBlock; run: RunSnapshot }> {
    const now = this.now();
    const change = await this.transactRun(async (transaction) => {
      const [pending, messages] = await Promise.all([this.findPending(transaction, target), this.messagesIn(transaction, target.conversationId)]);
      const { conversation, message, block } = pending;
      if (options.noLiveRun && block.type === 'elicitation_request') throw elicitationDead();
      const result = resolveRequest(block, resolution, { ...checks, now });
      if (!result.ok) throw new WireError({ code: 'invalid_answer', reason: result.reason, params: result.params, message: result.message, field: result.field });
      const nextMessage = withRequest(message, result.block, now);
      const nextConversation: Conversation = { ...conversation, runState: result.runState, updatedAt: now };
      await Promise.all([transaction.objectStore('messages').put(nextMessage), transaction.objectStore('conversations').put(nextConversation)]);
      return { conversation: nextConversation, messages: [nextMessage], block: result.block, history: afterWrite(messages, [nextMessage]) };
    });
    this.listener.changed({ conversation: change.conversation, messages: change.messages });
    return { conversation: change.conversation, message: change.messages[0]!, block: change.block, run: { conversation: change.conversation, history: change.history } };
  }

  /** The request as stored, if any (a resolution command reads what kind of request it is first). */
  async getRequest(target: RequestTarget): Promise<RequestBlock | undefined> {
    const message = await this.database.get('messages', target.messageId);
    return message?.conversationId === target.conversationId ? findRequest(message, target.requestId) : undefined;
  }

  /**
   * Stop for a conversation that no run of this worker holds, as ONE compare-and-set transaction: pending questions
   * are resolved as stopped, a reply left interrupted (or streaming) becomes stopped, and the conversation idle. Writes
   * nothing (undefined) when it is idle or running already.
   */
  async stopRun(conversationId: string): Promise<Conversation | undefined> {
    const now = this.now();
    const change = await this.transact(['conversations', 'messages'], async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation) throw notFound('conversation', conversationId);
      if (!(['awaiting_input', 'interrupted', 'waiting_network', 'error'] as RunState[]).includes(conversation.runState)) return undefined;
      const messages: Message[] = [];
      for (const message of await this.messagesIn(transaction, conversationId)) {
        let next = message;
        for (const block of message.blocks) {
          if (isPendingRequest(block)) next = withRequest(next, resolveByStop(block as RequestBlock, now), now);
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
    if (!change) return undefined;
    this.listener.changed(change);
    return change.conversation;
  }

  /** Saves a half-filled form on its pending block. */
  async saveDraft(target: RequestTarget, draft: QuestionDraft): Promise<Message> {
    const message = await this.transact(['conversations', 'messages'], async (transaction) => {
      const { message, block } = await this.findPending(transaction, target);
      if (block.type !== 'question_request') throw new WireError({ code: 'invalid_state', reason: 'draft_not_question', message: 'Only a question keeps a draft.' });
      const next = withRequest(message, { ...block, draft } satisfies QuestionRequestBlock, message.updatedAt);
      await transaction.objectStore('messages').put(next);
      return next;
    });
    this.listener.changed({ messages: [message] });
    return message;
  }

  /**
   * Moves a conversation from one of `from` to `to`, in one transaction; a streaming message becomes `messageStatus`.
   * Returns undefined (and writes nothing) when the conversation is not in one of `from`.
   */
  async transition(conversationId: string, from: RunState[], to: RunState, messageStatus: Message['status'] = 'interrupted'): Promise<Conversation | undefined> {
    const now = this.now();
    const change = await this.transact(['conversations', 'messages'], async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation || !from.includes(conversation.runState)) return undefined;
      const next: Conversation = { ...conversation, runState: to, updatedAt: now };
      if (to === 'idle' || to === 'running') delete next.runError;
      const messages: Message[] = [];
      for (const message of await this.messagesIn(transaction, conversationId)) {
        if (message.status !== 'streaming') continue;
        messages.push({ ...message, status: messageStatus, updatedAt: now });
      }
      return putChange(transaction, next, messages);
    });
    if (!change) return undefined;
    this.listener.changed(change);
    return change.conversation;
  }

  private async findPending(transaction: Transaction, target: RequestTarget) {
    // Both read at once: each awaited request is a round trip to the database, and this is on the answer's path.
    const [conversation, message] = await Promise.all([transaction.objectStore('conversations').get(target.conversationId), transaction.objectStore('messages').get(target.messageId)]);
    if (!conversation) throw notFound('conversation', target.conversationId);
    if (!message || message.conversationId !== target.conversationId) throw notFound('message', target.messageId);
    const block = findRequest(message, target.requestId);
    if (!block) throw notFound('request', target.requestId);
    if (!isPendingRequest(block)) {
      throw new WireError({
        code: 'already_resolved',
        message: block.type === 'question_request' ? 'These questions were already answered, possibly in another tab.' : 'This was already decided, possibly in another tab.',
        outcome: resolvedOutcomeOf(block),
      });
    }
    return { conversation, message, block };
  }

  /**
   * Repairs a conversation whose run died (its lock is free, the caller holds it): a `running` conversation becomes
   * interrupted, and see repairDeadRun for its tool calls and elicitations. A call cut off while running makes it wait
   * for the user's "Run again or Skip". Writes nothing (undefined) when there is nothing to repair.
   */
  async repairDeadRun(conversationId: string): Promise<Conversation | undefined> {
    const now = this.now();
    const change = await this.transact(['conversations', 'messages'], async (transaction) => {
      const conversation = await transaction.objectStore('conversations').get(conversationId);
      if (!conversation || (conversation.runState !== 'running' && conversation.runState !== 'awaiting_input')) return undefined;
      const messages = await this.messagesIn(transaction, conversationId);
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
    if (!change) return undefined;
    this.listener.changed(change);
    return change.conversation;
  }

  private messagesIn(transaction: ReadTransaction, conversationId: string): Promise<Message[]> {
    const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
    return transaction.objectStore('messages').index('by-conversation').getAll(range);
  }

  private transact<T>(stores: Stores, body: (transaction: Transaction) => Promise<T>): Promise<T> {
    return inTransaction(this.database, stores, body);
  }

  /** A transaction a model step may follow: it also reads the config generation and reports it once committed. */
  private async transactRun<T>(body: (transaction: Transaction) => Promise<T>): Promise<T> {
    let generation: number | undefined;
    const result = await this.transact(RUN_STORES, async (transaction) => {
      const [value, read] = await Promise.all([body(transaction), readConfigGeneration(transaction)]);
      generation = read;
      return value;
    });
    if (generation !== undefined) this.listener.sawConfigGeneration?.(generation);
    return result;
  }
}

/** Writes a conversation and its changed messages inside `transaction`; the change, for the listener. */
async function putChange(transaction: Transaction, conversation: Conversation, messages: Message[]): Promise<{ conversation: Conversation; messages: Message[] }> {
  for (const message of messages) await transaction.objectStore('messages').put(message);
  await transaction.objectStore('conversations').put(conversation);
  return { conversation, messages };
}

/** The messages in order once `written` (new or replaced, by id) are stored. */
function afterWrite(messages: readonly Message[], written: readonly Message[]): Message[] {
  const byId = new Map(written.map((message) => [message.id, message]));
  const history = messages.map((message) => byId.get(message.id) ?? message);
  for (const message of written) if (!messages.some((stored) => stored.id === message.id)) history.push(message);
  return history.sort((a, b) => a.seq - b.seq);
}

/** An elicitation whose run is gone: its server can no longer receive an answer. */
export function elicitationDead(): WireError {
  return new WireError({ code: 'invalid_state', reason: 'elicitation_dead', message: 'The tool that asked this has stopped (the app was closed or reloaded while it waited), so it can no longer receive an answer. It is marked interrupted.' });
}

function titleFrom(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim()) ?? text;
  const trimmed = line.trim();
  return trimmed.length > 60 ? `${trimmed.slice(0, 57)}…` : trimmed;
}

function notFound(kind: 'conversation' | 'message' | 'request', id: string): WireError {
  return new WireError({ code: 'not_found', reason: `${kind}_gone`, message: `No ${kind} with id "${id}" here. It may have been deleted.` });
}

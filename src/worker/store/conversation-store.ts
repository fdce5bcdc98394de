import type { RequestBlock, RequestResolution, ResolveContext } from '../../core/requests/requests';
import type { ConversationStore, RecordChange, RunChange, RunSnapshot } from '../../core/run/store';
import type { MessageMatches } from '../../schema/search/find-matches';
import type { ConversationSizes, ImportRepair, PendingRequest } from '../../schema/protocol';
import type { QuestionDraft } from '../../schema/forms/question';
import type { DeviceRef } from '../../schema/sync/device';
import type { Conversation, ConversationExport, Message, RunState } from '../../schema/records';
import type { BranchRecords, NewVersion } from '../branches/branch-records';
import type { ExportedConversation } from '../transfer/conversation-export';
import type { ParleyDatabase } from './database';
import { listMessages } from './message-pages';
import type { RequestTarget } from '../../schema/protocol';
import { RequestRecords } from '../requests/request-records';
import { claimProposal } from '../sync/documents/applied-proposals';
import { RunRecords } from '../runs/run-records';
import { UNTITLED } from '../../schema/conversation-title';
import { notFound, type StoreContext, type StoreListener } from './store-context';
import { removeUnused } from './unused-conversations';
import { readStoredSettings } from '../settings/stored-config';
import { inTransaction, type Transaction } from './transaction';
import { deleteAttachmentsOfConversation, type PreparedAttachment } from '../attachments/attachment-records';
import type { StoredAttachment } from '../../schema/attachments/attachments';

/**
 * Conversations and messages over IndexedDB. Every method is one transaction that awaits nothing but IndexedDB
 * requests; a thrown error aborts it, so a failed command writes nothing. The conversation records are written here;
 * runs (run-records), requests (request-records) and the UI's message reads (message-pages) have their own modules.
 */
export class IndexedDbConversationStore implements ConversationStore {
  private readonly runs: RunRecords;
  private readonly requests: RequestRecords;
  private readonly context: StoreContext;
  private branchRecords: Promise<BranchRecords> | undefined;

  constructor(
    private readonly database: ParleyDatabase,
    private readonly listener: StoreListener,
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {
    const context: StoreContext = { database, listener, now, newId };
    this.runs = new RunRecords(context);
    this.requests = new RequestRecords(context);
    this.context = context;
  }

  /** Versions and branches: their code loads with the first regenerate, edit or version switch, not with a first reply. */
  private branches(): Promise<BranchRecords> {
    return (this.branchRecords ??= import('../branches/branch-records').then(
      (module) => new module.BranchRecords(this.context),
      (error: unknown) => {
        this.branchRecords = undefined;
        throw error;
      },
    ));
  }

  getConversation(conversationId: string): Promise<Conversation | undefined> {
    return this.database.get('conversations', conversationId);
  }

  getMessage(messageId: string): Promise<Message | undefined> {
    return this.database.get('messages', messageId);
  }

  /** Several messages in one read (one transaction, not one each), in order; undefined where there is none. */
  getMessages(messageIds: readonly string[]): Promise<Array<Message | undefined>> {
    const messages = this.database.transaction('messages', 'readonly').store;
    return Promise.all(messageIds.map((messageId) => messages.get(messageId)));
  }

  /**
   * A conversation and some of its messages as one snapshot (one transaction). Read in separate transactions, a write
   * between them (a dead tab's run repaired) paired the old conversation with the new messages, and that pair, told
   * after the write's own event, put "running" back on screen with no way to continue.
   */
  async readTogether(conversationId: string, messageIds: readonly string[]): Promise<{ conversation?: Conversation; messages: Message[] }> {
    const transaction = this.database.transaction(['conversations', 'messages'], 'readonly');
    const messages = transaction.objectStore('messages');
    const [conversation, ...found] = await Promise.all([transaction.objectStore('conversations').get(conversationId), ...messageIds.map((messageId) => messages.get(messageId))]);
    return { conversation, messages: found.filter((message): message is Message => message?.conversationId === conversationId) };
  }

  async listConversations(): Promise<Conversation[]> {
    return (await this.database.getAllFromIndex('conversations', 'by-updated')).reverse();
  }

  async write(change: RecordChange, options?: { ifExists?: boolean }): Promise<boolean> {
    const conversationId = change.conversation?.id ?? change.messages?.[0]?.conversationId;
    const written = await inTransaction(this.database, ['conversations', 'messages'], async (transaction) => {
      if (options?.ifExists && conversationId !== undefined && !(await transaction.objectStore('conversations').get(conversationId))) return false;
      if (change.conversation) await transaction.objectStore('conversations').put(change.conversation);
      for (const message of change.messages ?? []) await transaction.objectStore('messages').put(message);
      return true;
    });
    if (written) this.listener.committed(change);
    return written;
  }

  /**
   * A new conversation, pinned to the default profile: a later change of the default never moves it to another provider.
   * `profileOf` finds the default in the settings record read in this transaction, not in this worker's copy, which
   * another tab's change may not have reached yet. An existing id is returned as it is. Other conversations that were
   * never used (no message, no draft, untitled, idle) are removed in the same transaction, so clicking "New
   * conversation" does not pile up empty ones; `keep` names those another tab has on screen and, with sync, those
   * another device runs.
   */
  async createConversation(
    title: string | undefined,
    profileOf: (storedSettings: unknown) => string,
    conversationId?: string,
    /** What the clean-up of unused conversations must leave; undefined: no clean-up this time. */
    keep?: ReadonlySet<string>,
  ): Promise<Conversation> {
    const now = this.now();
    const freshId = conversationId ?? this.newId();
    const result = await inTransaction(this.database, ['conversations', 'messages', 'settings'], async (transaction) => {
      const existing = await transaction.objectStore('conversations').get(freshId);
      if (existing) return { conversation: existing, created: false, removed: [] as string[] };
      const fresh: Conversation = { id: freshId, title: title?.trim() ? title : UNTITLED, createdAt: now, updatedAt: now, runState: 'idle', completedSteps: 0, profileId: profileOf(await readStoredSettings(transaction)) };
      const removed = keep ? await removeUnused(transaction, keep) : [];
      await transaction.objectStore('conversations').put(fresh);
      return { conversation: fresh, created: true, removed };
    });
    if (result.removed.length > 0) this.listener.committed({ removed: result.removed });
    if (result.created) this.listener.committed({ conversation: result.conversation });
    return result.conversation;
  }

  /** Stores the composer's unsent text on the conversation (without touching its place in the list). */
  async saveComposerDraft(conversationId: string, text: string): Promise<void> {
    const conversation = await inTransaction(this.database, ['conversations'], async (transaction) => {
      const stored = await transaction.objectStore('conversations').get(conversationId);
      if (!stored) throw notFound('conversation', conversationId);
      if ((stored.draft ?? '') === text) return undefined;
      const next: Conversation = { ...stored };
      if (text) next.draft = text;
      else delete next.draft;
      await transaction.objectStore('conversations').put(next);
      return next;
    });
    if (conversation) this.listener.committed({ conversation });
  }

  async updateConversation(conversationId: string, update: (conversation: Conversation) => Conversation): Promise<Conversation> {
    const conversation = await inTransaction(this.database, ['conversations'], async (transaction) => {
      const stored = await transaction.objectStore('conversations').get(conversationId);
      if (!stored) throw notFound('conversation', conversationId);
      const next = update(stored);
      await transaction.objectStore('conversations').put(next);
      return next;
    });
    this.listener.committed({ conversation });
    return conversation;
  }

  /** Records another device wrote (sync), stored as they are (see remote-records.ts, loaded with sync's first). */
  async applyRemote(change: RecordChange): Promise<void> {
    return (await import('./remote-records')).applyRemoteChange(this.context, change);
  }

  /** Makes a conversation just taken over from another device safe to run here (see remote-records.ts). */
  async repairTakeOver(conversationId: string): Promise<void> {
    return (await import('./remote-records')).repairTakenOverConversation(this.context, conversationId);
  }

  /** Every message of a conversation, every version and branch. */
  allMessages(conversationId: string): Promise<Message[]> {
    const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
    return this.database.getAllFromIndex('messages', 'by-conversation', range);
  }

  async deleteConversation(conversationId: string): Promise<void> {
    // Its files go with it, in the same transaction.
    await inTransaction(this.database, ['conversations', 'messages', 'attachments'], async (transaction) => {
      if (!(await transaction.objectStore('conversations').get(conversationId))) throw notFound('conversation', conversationId);
      await transaction.objectStore('conversations').delete(conversationId);
      await deleteAttachmentsOfConversation(transaction, conversationId);
      const range = IDBKeyRange.bound([conversationId, 0], [conversationId, Number.MAX_SAFE_INTEGER]);
      const keys = await transaction.objectStore('messages').index('by-conversation').getAllKeys(range);
      for (const key of keys) await transaction.objectStore('messages').delete(key);
    });
    this.listener.committed({ removed: [conversationId] });
  }

  /** Writes an export's conversations in chunks of whole conversations (see importInChunks); one notice at the end. */
  async importConversations(file: ConversationExport, knownProfileIds: ReadonlySet<string>): Promise<{ imported: Conversation[]; skipped: number; repairs: ImportRepair[] }> {
    // Loaded when an import is made, not with the worker.
    const { importInChunks } = await import('../transfer/conversation-import');
    const result = await importInChunks(this.database, file, knownProfileIds, this.now(), (conversations) => this.listener.committed({ imported: conversations }));
    return { imported: result.imported.map((entry) => entry.conversation), skipped: result.skipped, repairs: result.repairs };
  }

  async exportAll(): Promise<ExportedConversation[]> {
    // Loaded when an export is made, not with the worker.
    return (await import('../transfer/conversation-export')).exportAll(this.database);
  }

  /** The largest conversations by approximate stored size, and the total (see conversationSizes). */
  async conversationSizes(limit: number): Promise<ConversationSizes> {
    // Settings' storage list: loaded when it is shown, not with a first reply.
    return (await import('./storage-usage')).conversationSizes(this.database, limit);
  }

  // A conversation's messages as the UI reads them: see message-pages.
  listMessages(conversationId: string): Promise<Message[]> {
    return listMessages(this.database, conversationId);
  }

  /** Find in conversation: its code loads with the first search. */
  async searchMessages(conversationId: string, query: string): Promise<MessageMatches[]> {
    return (await import('./message-search')).searchMessages(this.database, conversationId, query);
  }

  // A run's state: see RunRecords.
  readRun(conversationId: string): Promise<RunSnapshot | undefined> {
    return this.runs.readRun(conversationId);
  }

  applyRun(conversationId: string, change: RunChange, messages: Message[]): Promise<Conversation | undefined> {
    return this.runs.applyRun(conversationId, change, messages);
  }

  appendUserMessage(
    conversationId: string,
    text: string,
    defaultProfileId: string,
    files: readonly PreparedAttachment[] = [],
    options?: { messageId?: string; device?: DeviceRef },
  ): Promise<{ conversation: Conversation; message: Message; run: RunSnapshot }> {
    return this.runs.appendUserMessage(conversationId, text, defaultProfileId, files, options);
  }

  /** One file sent with a message, to show it. */
  readAttachment(attachmentId: string): Promise<StoredAttachment | undefined> {
    return this.database.get('attachments', attachmentId);
  }

  // Versions and branches: see BranchRecords.
  addVersion(conversationId: string, version: NewVersion, options?: { discardPending?: boolean }): Promise<{ conversation: Conversation; message: Message; run: RunSnapshot }> {
    return this.branches().then((branches) => branches.addVersion(conversationId, version, options));
  }

  selectVersion(conversationId: string, messageId: string, options?: { discardPending?: boolean }): Promise<{ conversation: Conversation; messages: Message[] }> {
    return this.branches().then((branches) => branches.selectVersion(conversationId, messageId, options));
  }

  deleteVersion(conversationId: string, messageId: string): Promise<{ conversation: Conversation; messages: Message[] }> {
    return this.branches().then((branches) => branches.deleteVersion(conversationId, messageId));
  }

  transition(conversationId: string, from: RunState[], to: RunState, messageStatus?: Message['status']): Promise<Conversation | undefined> {
    return this.runs.transition(conversationId, from, to, messageStatus);
  }

  stopRun(conversationId: string): Promise<Conversation | undefined> {
    return this.runs.stopRun(conversationId);
  }

  repairDeadRun(conversationId: string): Promise<Conversation | undefined> {
    return this.runs.repairDeadRun(conversationId);
  }

  // Pending requests: see RequestRecords.
  listPendingRequests(): Promise<PendingRequest[]> {
    return this.requests.listPendingRequests();
  }

  getRequest(target: RequestTarget): Promise<RequestBlock | undefined> {
    return this.requests.getRequest(target);
  }

  resolveRequest(
    target: RequestTarget,
    resolution: RequestResolution,
    checks: Omit<ResolveContext, 'now'>,
    options?: Parameters<RequestRecords['resolveRequest']>[3],
  ): Promise<{ conversation: Conversation; message: Message; block: RequestBlock; run: RunSnapshot }> {
    return this.requests.resolveRequest(target, resolution, checks, options);
  }

  saveDraft(target: RequestTarget, draft: QuestionDraft): Promise<Message> {
    return this.requests.saveDraft(target, draft);
  }

  /** Records another device's proposal as applied, in a transaction of its own (see claimProposal); false for a replay. */
  claimProposal(nonce: string): Promise<boolean> {
    return claimProposal(this.database, nonce, this.now());
  }
}

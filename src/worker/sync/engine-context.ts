import type { RecordChange } from '../../core/run/store';
import type { Conversation, Message } from '../../schema/records';
import type { Proposal, RemoteRunners, SyncStatus } from '../../schema/sync/sync';
import type { ParleyDatabase } from '../store/database';
import type { AttachmentHost, AttachmentSync } from './content/attachment-sync';
import type { Mirror } from './mirror/mirror';
import type { RefusalKind } from './documents/refusal-log';
import type { RunnerBook } from './documents/runner-book';
import type { MessageSegments } from './documents/message-segments';
import type { SealedDocuments } from './documents/sealed-documents';
import type { SyncKeys } from './documents/sync-crypto';
import type { SyncedSettingsHost } from './content/synced-settings';

/** What sync takes from the host: the database, new ids, this tab's page, and what the engine needs of the host. */
export interface SyncGateDeps {
  database: ParleyDatabase;
  newId(): string;
  /** This tab's UI only: each tab's worker says what its own sync does. */
  post(event: { type: 'sync-status'; status: SyncStatus } | { type: 'sync-runners'; runners: RemoteRunners }): void;
  /** What the engine needs of this device's host (store, runs, the compare-and-set of proposals); loaded with the engine. */
  engineHost(): Promise<SyncEngineHost>;
}

/** What the engine needs of the device it runs on: its records, and what to do with what other devices sent. */
export interface SyncEngineHost extends AttachmentHost {
  getConversation(conversationId: string): Promise<Conversation | undefined>;
  /** Several messages in one read, in order (undefined where there is none). */
  getMessages(messageIds: readonly string[]): Promise<Array<Message | undefined>>;
  listConversations(): Promise<Conversation[]>;
  /** Every message of a conversation, every version. */
  allMessages(conversationId: string): Promise<Message[]>;
  /** Stores records another device wrote (a conversation this device does not run), telling the UI as a write does. */
  applyRemote(change: RecordChange): Promise<void>;
  deleteLocal(conversationId: string): Promise<void>;
  /** A read-modify-write of a conversation this device runs, in one transaction, told as a write is (so it syncs). */
  updateConversation(conversationId: string, update: (conversation: Conversation) => Conversation): Promise<void>;
  /**
   * Applies another device's proposal to a conversation this device runs, through the same compare-and-set as here, at
   * most once: its nonce is recorded as applied with it (refused with `replayed` when it was before).
   */
  applyProposal(proposal: Proposal): Promise<{ status: 'applied' } | { status: 'refused'; reason: string }>;
  /** Another device took over a conversation this device ran: stop running it here. */
  runnerLost(conversationId: string): void;
  /** This device took a conversation over: repair what the other device left running (it never runs here by itself). */
  takenOver(conversationId: string): Promise<void>;
  runnersChanged(runners: RemoteRunners): void;
  now(): number;
  /** The settings that sync (docs/architecture.md, "Settings that sync"): read here, and another device's stored. */
  settings: SyncedSettingsHost;
}

/** What the engine's parts (its push queue, its receiver) share with it, one object for one engine. */
export interface EngineContext {
  readonly mirror: Mirror;
  readonly keys: SyncKeys;
  readonly host: SyncEngineHost;
  readonly book: RunnerBook;
  readonly sealed: SealedDocuments;
  /** Which segment each message of a conversation travels in. */
  readonly segments: MessageSegments;
  /** The bytes of files: written before the messages naming them, put together as they arrive. */
  readonly attachments: AttachmentSync;
  /** Counts a document from the server that was refused (never applied), for the warning in Sync's status. */
  refused(kind: RefusalKind): void;
  /** The key document changed on the server (written, replaced or deleted): the service looks at it again. */
  keyDocumentChanged(): void;
  /** Set by `stop`: nothing more is pushed or applied. */
  stopped: boolean;
}

import type { CommandOf, CommandResult, CommandType, ProposableType } from '../../schema/commands';
import type { DeviceRef } from '../../schema/sync/device';
import type { AppEvent } from '../../schema/events';
import type { ConnectionTestResult } from '../../schema/protocol';
import type { Conversation, ConversationExport, Profile } from '../../schema/records';
import type { ResolveContext } from '../../core/requests/requests';
import type { Tool } from '../../core/tools/tool';
import type { StorageEstimate } from '../attachments/attachment-files';
import type { Search } from '../search/lazy-search';
import type { IndexedDbConversationStore } from '../store/conversation-store';
import type { McpServers } from '../mcp/lazy-mcp-hub';
import type { ReadDeps } from '../first-screen/first-screen-reads';
import type { RunManager } from '../runs/run-manager';
import type { SettingsStore } from '../settings/settings-store';
import type { SyncGate } from '../sync/sync-gate';

/** What the command handlers work with: the host's store, settings, runs, and the rest it hands them. */
export interface CommandHandlerDeps {
  store: IndexedDbConversationStore;
  settings: SettingsStore;
  runs: RunManager;
  /** Asks other tabs' workers to stop their run of a conversation. */
  requestPeerStop(conversationId: string): void;
  emit(event: AppEvent): void;
  testConnection(profile: Profile): Promise<ConnectionTestResult>;
  /**
   * How a resolution's params are checked: edited arguments against the tool's schema, a form against the server's; and
   * the tools a run would have now, with which an Allow marks its call running in its own transaction (see beginCall).
   * `forms`: whether an elicitation's form may be answered (only a live run receives one): its checker is loaded then.
   */
  requestChecks(conversationId: string, options: { forms: boolean }): Promise<Omit<ResolveContext, 'now'> & { tools?: readonly Tool[] }>;
  now(): number;
  mcp: McpServers;
  /** Search across conversations (its index is built on the first search). */
  search: Search;
  /** What the first screen's reads, answered here once this host exists, work with. */
  reads: ReadDeps;
  /** Reads, parses and validates a chosen export file (see HostEnvironment.readImport); on this thread when absent. */
  readImport?(file: Blob): Promise<ConversationExport>;
  /** Sync: who runs each conversation, and proposals to the device that does. Absent in older tests. */
  sync?: SyncGate;
  /** Ids of new records (attachments, proposed messages); random UUIDs when absent. */
  newId?(): string;
  /** See HostEnvironment.estimateStorage; the browser's when absent. */
  estimateStorage?: StorageEstimate;
  /** The profile a conversation talks to (its own, else the default); undefined when it was deleted. */
  profileOf?(conversation: Conversation): Promise<Profile | undefined>;
}

/** Who a command runs for: the device where the user decided (this one, or the proposal's), while sync is on. */
export interface CommandContext {
  device?: DeviceRef | undefined;
  /** Another device proposed it (scope `conversation`): it carries what that device showed the user. */
  proposed: boolean;
  /**
   * The proposal's nonce, for a handler whose compare-and-set records it as applied in its own transaction
   * (`CLAIMED_IN_APPLY` in command-handler.ts); the dispatcher records it for every other.
   */
  claim?: string;
}

/** One handler per command type; each group of commands gives a part of it (`satisfies Partial<Handlers>`). */
export type Handlers = { [T in CommandType]: (command: CommandOf<T>, context: CommandContext) => Promise<CommandResult<T>> };

/**
 * How a `conversation` command leaves a device that does not run the conversation (docs/architecture.md, "Commands and
 * their scope"): it pins what this device showed the user (the request decided, a new message's id), or refuses what
 * cannot travel, and says what this device's caller gets back beside `proposedTo`. Absent: the command travels as given.
 */
export type Proposers = {
  [T in ProposableType]?: (command: CommandOf<T>, runner: DeviceRef) => Promise<{ command: CommandOf<T>; reply: Omit<CommandResult<T>, 'proposedTo'> }>;
};

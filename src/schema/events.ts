import * as z from './zod-mini';
import { Conversation, Message, ProfileView, Settings } from './records';
import { McpServerView } from './mcp';
import { RemoteRunners, SyncStatus } from './sync/sync';

/** A transient, unpersisted note about a run: a rate-limit wait, a network wait, a wait for a file still syncing here. */
export const RunNotice = z.object({
  kind: z.enum(['retrying', 'waiting_network', 'waiting_file']),
  message: z.string(),
  /** When the next attempt starts (epoch ms), if scheduled. */
  retryAt: z.optional(z.number()),
  attempt: z.optional(z.number()),
});
export type RunNotice = z.infer<typeof RunNotice>;

/**
 * How far a running tool is, as its MCP server last said (`notifications/progress`). Transient like a run notice:
 * never stored, throttled on the way, and shown only while the call's block is `running`.
 */
export const ToolProgress = z.object({
  progress: z.number(),
  total: z.optional(z.number()),
  message: z.optional(z.string().check(z.maxLength(500))),
});
export type ToolProgress = z.infer<typeof ToolProgress>;

/** Everything the worker tells the UI, unasked. Named noun-action. Records are whole: the UI replaces, never merges. */
export const AppEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('worker-ready') }),
  z.object({ type: z.literal('conversation-upserted'), conversation: Conversation }),
  z.object({ type: z.literal('conversation-deleted'), conversationId: z.string() }),
  /** Many conversations at once (an import): the list is refreshed once. Their messages are read when opened. */
  z.object({ type: z.literal('conversations-imported'), conversations: z.array(Conversation) }),
  z.object({ type: z.literal('message-upserted'), message: Message }),
  z.object({ type: z.literal('run-notice'), conversationId: z.string(), notice: z.nullable(RunNotice) }),
  z.object({ type: z.literal('tool-progress'), conversationId: z.string(), messageId: z.string(), toolCallId: z.string(), progress: ToolProgress }),
  z.object({ type: z.literal('settings-changed'), settings: Settings }),
  z.object({ type: z.literal('profiles-changed'), profiles: z.array(ProfileView) }),
  /**
   * The UI words it from `reason` (and, for a full disk, the bytes `usage` of `quota` when the browser said);
   * `message` is English detail for developers, shown only when there is no reason.
   */
  z.object({
    type: z.literal('storage-error'),
    message: z.string(),
    reason: z.optional(z.enum(['storage_full', 'save_failed', 'database_closed', 'open_failed'])),
    usage: z.optional(z.number()),
    quota: z.optional(z.number()),
  }),
  /** A newer Parley took the database over in another tab: this tab's code is stale and must reload. */
  z.object({ type: z.literal('app-outdated') }),
  /** Said by the page, not a worker: this tab's worker died and a new one took over (runs it had were interrupted). */
  z.object({ type: z.literal('worker-restarted') }),
  /** Sync: what it is doing, and which conversations another device runs. */
  z.object({ type: z.literal('sync-status'), status: SyncStatus }),
  z.object({ type: z.literal('sync-runners'), runners: RemoteRunners }),
  /**
   * Sync: the bytes of a file another device sent are stored here now, and are `blob`: a message showing it as "not
   * here yet" shows them without asking the worker, which may be busy with the rest of what sync brings.
   */
  z.object({ type: z.literal('attachment-arrived'), attachmentId: z.string(), blob: z.optional(z.instanceof(Blob)) }),
  /** The MCP servers as this tab sees them: stored configuration, this tab's connections, their tools. */
  z.object({ type: z.literal('mcp-servers-changed'), servers: z.array(McpServerView) }),
]);
export type AppEvent = z.infer<typeof AppEvent>;

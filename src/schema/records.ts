import * as z from './zod-mini';
import { Block, ErrorDetail } from './messages/blocks';
import { ExportedAttachment, MessageAttachments } from './attachments/attachments';
import { PROVIDER_KIND_NAMES } from './provider-kinds';
import { INSTRUCTIONS_LIMIT } from './limits';

/** Where a conversation's agent loop stands. Persisted: a reload reads it back as it was. */
export const RunState = z.enum(['idle', 'running', 'awaiting_input', 'interrupted', 'waiting_network', 'error']);
export type RunState = z.infer<typeof RunState>;

export const RunError = z.object({ code: z.string(), message: z.string(), detail: z.optional(ErrorDetail) });
export type RunError = z.infer<typeof RunError>;

/** The longest instructions a profile or a conversation holds (its home is limits.ts, zod-free). */
export { INSTRUCTIONS_LIMIT };

/**
 * A message with more than one version: the children of one parent (a regenerated reply, an edited message), oldest
 * first, and the one on screen. The conversation's path takes `selectedId` here, and the only child elsewhere.
 */
export const Fork = z.object({
  /** The parent message's id; '' for the conversation's first message. */
  parentId: z.string().check(z.maxLength(200)),
  childIds: z.array(z.string().check(z.maxLength(200))).check(z.minLength(2), z.maxLength(1000)),
  selectedId: z.string().check(z.maxLength(200)),
});
export type Fork = z.infer<typeof Fork>;

export { versionsOf } from './versions';

export const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  runState: RunState,
  runError: z.optional(RunError),
  /** Model profile this conversation talks to; absent means the default profile. */
  profileId: z.optional(z.string()),
  /** Model steps completed so far; the scripted model replies to call n with step n. */
  completedSteps: z.number().check(z.int(), z.gte(0)),
  /** The composer's unsent text, so a reload or a view switch never loses what the user typed. */
  draft: z.optional(z.string().check(z.maxLength(100_000))),
  /** "Instructions for this conversation": they take the place of its profile's instructions. */
  instructions: z.optional(z.string().check(z.maxLength(INSTRUCTIONS_LIMIT))),
  /** Where the conversation branches (core/branches.ts); absent while it is one line of messages. */
  forks: z.optional(z.array(Fork).check(z.maxLength(10_000))),
  /**
   * Sync: titles given on another device at the same time as this one's, that lost (the device running the
   * conversation decides): kept here rather than dropped, oldest first. `device` is the id of the device that gave it.
   */
  otherTitles: z.optional(z.array(z.object({ title: z.string().check(z.maxLength(1000)), at: z.number(), device: z.optional(z.string().check(z.maxLength(100))) })).check(z.maxLength(20))),
});
export type Conversation = z.infer<typeof Conversation>;

export const MessageStatus = z.enum(['complete', 'streaming', 'interrupted', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const Usage = z.object({
  inputTokens: z.optional(z.number()),
  outputTokens: z.optional(z.number()),
  /** Generation speed, when the provider measures it (the in-browser model does). */
  tokensPerSecond: z.optional(z.number()),
});
export type Usage = z.infer<typeof Usage>;

export const Message = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** Position on its path (0 for a first message): the versions of one message share it. */
  seq: z.number().check(z.int(), z.gte(0)),
  /**
   * The message before it on its path; '' for a first message. Absent on messages stored before branches existed: their
   * parent is the message one position earlier that has no `parentId` either (they form one line).
   */
  parentId: z.optional(z.string().check(z.maxLength(200))),
  role: z.enum(['user', 'assistant']),
  blocks: z.array(Block),
  status: MessageStatus,
  createdAt: z.number(),
  updatedAt: z.number(),
  usage: z.optional(Usage),
  /**
   * Set while the message holds a request for the user (a question, a tool call to approve, an elicitation): its id,
   * so every pending request is one index away (the inbox, the badge).
   */
  pendingRequestId: z.optional(z.string()),
  /** The same, as databases and exports before version 2 stored it (questions only). Read, never written. */
  pendingQuestionId: z.optional(z.string()),
  /** Files sent with a user message (their bytes are in the `attachments` store); absent when none. */
  attachments: z.optional(MessageAttachments),
  /**
   * What Parley tells the user about how a reply was made, as codes and parameters the UI words (`tools_left_out`:
   * the tool definitions did not fit in the model's context of `tokens`; `files_not_here`: a file of the history had
   * not reached this device from the one that sent it); absent when none.
   */
  notices: z.optional(z.array(ErrorDetail).check(z.maxLength(20))),
});
export type Message = z.infer<typeof Message>;

/**
 * A profile's provider kind, one of PROVIDER_KINDS. 'in-browser': a GGUF model stored on this device; the profile's
 * `model` is its source (URL, or `file:<name>`).
 */
export const ProviderKind = z.enum(PROVIDER_KIND_NAMES);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** A saved model profile. `apiKey` never leaves this origin except to `baseUrl`. */
export const Profile = z.object({
  id: z.string(),
  name: z.string().check(z.minLength(1), z.maxLength(80)),
  kind: ProviderKind,
  baseUrl: z._default(z.string().check(z.maxLength(2000)), ''),
  apiKey: z._default(z.string().check(z.maxLength(500)), ''),
  model: z._default(z.string().check(z.maxLength(200)), ''),
  /** The profile's instructions (the system prompt's own part); a conversation's own instructions override them. */
  instructions: z.optional(z.string().check(z.maxLength(INSTRUCTIONS_LIMIT))),
  /** Sampling temperature; absent means the provider's default. */
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  /** The most tokens one reply may have; absent means the provider's default. */
  maxOutputTokens: z.optional(z.number().check(z.int(), z.gte(1), z.lte(1_000_000))),
  /** Whether the model takes images; absent: yes, except the in-browser model (see profileAcceptsImages). */
  acceptsImages: z.optional(z.boolean()),
  /**
   * Synced from another device that has a key for it, and none typed here yet: using it asks for the key in words.
   * Optional (absent on every profile made here): no migration.
   */
  keyNeeded: z.optional(z.boolean()),
});
export type Profile = z.infer<typeof Profile>;

/** What the UI sees of a profile: the key is masked. */
export const ProfileView = z.extend(z.omit(Profile, { apiKey: true }), { apiKeyMasked: z.string() });
export type ProfileView = z.infer<typeof ProfileView>;

export { SCRIPTED_PROFILE_ID } from './limits';

export const Settings = z.object({
  /** The scripted model's script, as JSON text the user edits. */
  script: z.string(),
  defaultProfileId: z.string(),
  locale: z.optional(z.enum(['en', 'zh-CN'])),
  /** The Built-in demo's instructions (it is not a stored profile): `{{systemPrompt}}` shows them. */
  demoInstructions: z.optional(z.string().check(z.maxLength(INSTRUCTIONS_LIMIT))),
});
export type Settings = z.infer<typeof Settings>;

/** An export file: every conversation with its messages. Profiles, and so API keys, are never part of it. */
/**
 * Settings as a backup carries them: the model profiles without their keys, the MCP servers without their tokens or
 * tool permissions ("Always allow" is a setting of one browser), and the scripted model's script.
 */
export const ExportedSettings = z.object({
  script: z.optional(z.string().check(z.maxLength(1_000_000))),
  profiles: z.optional(z.array(z.omit(Profile, { apiKey: true })).check(z.maxLength(200))),
  mcpServers: z.optional(z.array(z.object({ name: z.string().check(z.minLength(1), z.maxLength(200)), url: z.string().check(z.maxLength(2000)) })).check(z.maxLength(200))),
});
export type ExportedSettings = z.infer<typeof ExportedSettings>;

export const ConversationExport = z.object({
  format: z.literal('parley-export'),
  version: z.literal(1),
  exportedAt: z.number(),
  conversations: z
    .array(z.object({ conversation: Conversation, messages: z.array(Message), /** Absent when it has none. */ attachments: z.optional(z.array(ExportedAttachment).check(z.maxLength(100_000))) }))
    .check(z.maxLength(100_000)),
  /** Absent in files from before settings were part of the backup. */
  settings: z.optional(ExportedSettings),
});
export type ConversationExport = z.infer<typeof ConversationExport>;

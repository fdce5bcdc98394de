import { z } from 'zod';
import { Block, ErrorDetail } from './blocks';
import { ExportedAttachment, MessageAttachments } from './attachments/attachments';
import { PROVIDER_KIND_NAMES } from './provider-kinds';

/** Where a conversation's agent loop stands. Persisted: a reload reads it back as it was. */
export const RunState = z.enum(['idle', 'running', 'awaiting_input', 'interrupted', 'waiting_network', 'error']);
export type RunState = z.infer<typeof RunState>;

export const RunError = z.object({ code: z.string(), message: z.string(), detail: ErrorDetail.optional() });
export type RunError = z.infer<typeof RunError>;

/**
 * A message with more than one version: the children of one parent (a regenerated reply, an edited message), oldest
 * first, and the one on screen. The conversation's path takes `selectedId` here, and the only child elsewhere.
 */
/** The longest instructions a profile or a conversation holds. */
export const INSTRUCTIONS_LIMIT = 20_000;

export const Fork = z.object({
  /** The parent message's id; '' for the conversation's first message. */
  parentId: z.string().max(200),
  childIds: z.array(z.string().max(200)).min(2).max(1000),
  selectedId: z.string().max(200),
});
export type Fork = z.infer<typeof Fork>;

export { versionsOf } from './versions';

export const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  runState: RunState,
  runError: RunError.optional(),
  /** Model profile this conversation talks to; absent means the default profile. */
  profileId: z.string().optional(),
  /** Model steps completed so far; the scripted model replies to call n with step n. */
  completedSteps: z.number().int().min(0),
  /** The composer's unsent text, so a reload or a view switch never loses what the user typed. */
  draft: z.string().max(100_000).optional(),
  /** "Instructions for this conversation": they take the place of its profile's instructions. */
  instructions: z.string().max(INSTRUCTIONS_LIMIT).optional(),
  /** Where the conversation branches (core/branches.ts); absent while it is one line of messages. */
  forks: z.array(Fork).max(10_000).optional(),
  /**
   * Sync: titles given on another device at the same time as this one's, that lost (the device running the
   * conversation decides): kept here rather than dropped, oldest first. `device` is the id of the device that gave it.
   */
  otherTitles: z.array(z.object({ title: z.string().max(1000), at: z.number(), device: z.string().max(100).optional() })).max(20).optional(),
});
export type Conversation = z.infer<typeof Conversation>;

export const MessageStatus = z.enum(['complete', 'streaming', 'interrupted', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const Usage = z.object({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  /** Generation speed, when the provider measures it (the in-browser model does). */
  tokensPerSecond: z.number().optional(),
});
export type Usage = z.infer<typeof Usage>;

export const Message = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** Position on its path (0 for a first message): the versions of one message share it. */
  seq: z.number().int().min(0),
  /**
   * The message before it on its path; '' for a first message. Absent on messages stored before branches existed: their
   * parent is the message one position earlier that has no `parentId` either (they form one line).
   */
  parentId: z.string().max(200).optional(),
  role: z.enum(['user', 'assistant']),
  blocks: z.array(Block),
  status: MessageStatus,
  createdAt: z.number(),
  updatedAt: z.number(),
  usage: Usage.optional(),
  /**
   * Set while the message holds a request for the user (a question, a tool call to approve, an elicitation): its id,
   * so every pending request is one index away (the inbox, the badge).
   */
  pendingRequestId: z.string().optional(),
  /** The same, as databases and exports before version 2 stored it (questions only). Read, never written. */
  pendingQuestionId: z.string().optional(),
  /** Files sent with a user message (their bytes are in the `attachments` store); absent when none. */
  attachments: MessageAttachments.optional(),
  /**
   * What Parley tells the user about how a reply was made, as codes and parameters the UI words (`tools_left_out`:
   * the tool definitions did not fit in the model's context of `tokens`); absent when none.
   */
  notices: z.array(ErrorDetail).max(20).optional(),
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
  name: z.string().min(1).max(80),
  kind: ProviderKind,
  baseUrl: z.string().max(2000).default(''),
  apiKey: z.string().max(500).default(''),
  model: z.string().max(200).default(''),
  /** The profile's instructions (the system prompt's own part); a conversation's own instructions override them. */
  instructions: z.string().max(INSTRUCTIONS_LIMIT).optional(),
  /** Sampling temperature; absent means the provider's default. */
  temperature: z.number().min(0).max(2).optional(),
  /** The most tokens one reply may have; absent means the provider's default. */
  maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
  /** Whether the model takes images; absent: yes, except the in-browser model (see profileAcceptsImages). */
  acceptsImages: z.boolean().optional(),
  /**
   * Synced from another device that has a key for it, and none typed here yet: using it asks for the key in words.
   * Optional (absent on every profile made here): no migration.
   */
  keyNeeded: z.boolean().optional(),
});
export type Profile = z.infer<typeof Profile>;

/** What the UI sees of a profile: the key is masked. */
export const ProfileView = Profile.omit({ apiKey: true }).extend({ apiKeyMasked: z.string() });
export type ProfileView = z.infer<typeof ProfileView>;

export { SCRIPTED_PROFILE_ID } from './limits';

export const Settings = z.object({
  /** The scripted model's script, as JSON text the user edits. */
  script: z.string(),
  defaultProfileId: z.string(),
  locale: z.enum(['en', 'zh-CN']).optional(),
  /** The Built-in demo's instructions (it is not a stored profile): `{{systemPrompt}}` shows them. */
  demoInstructions: z.string().max(INSTRUCTIONS_LIMIT).optional(),
});
export type Settings = z.infer<typeof Settings>;

/** An export file: every conversation with its messages. Profiles, and so API keys, are never part of it. */
/**
 * Settings as a backup carries them: the model profiles without their keys, the MCP servers without their tokens or
 * tool permissions ("Always allow" is a setting of one browser), and the scripted model's script.
 */
export const ExportedSettings = z.object({
  script: z.string().max(1_000_000).optional(),
  profiles: z.array(Profile.omit({ apiKey: true })).max(200).optional(),
  mcpServers: z.array(z.object({ name: z.string().min(1).max(200), url: z.string().max(2000) })).max(200).optional(),
});
export type ExportedSettings = z.infer<typeof ExportedSettings>;

export const ConversationExport = z.object({
  format: z.literal('parley-export'),
  version: z.literal(1),
  exportedAt: z.number(),
  conversations: z
    .array(z.object({ conversation: Conversation, messages: z.array(Message), /** Absent when it has none. */ attachments: z.array(ExportedAttachment).max(100_000).optional() }))
    .max(100_000),
  /** Absent in files from before settings were part of the backup. */
  settings: ExportedSettings.optional(),
});
export type ConversationExport = z.infer<typeof ConversationExport>;

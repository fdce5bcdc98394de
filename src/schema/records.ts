import { z } from 'zod';
import { Block, ErrorDetail } from './blocks';

/** Where a conversation's agent loop stands. Persisted: a reload reads it back as it was. */
export const RunState = z.enum(['idle', 'running', 'awaiting_input', 'interrupted', 'waiting_network', 'error']);
export type RunState = z.infer<typeof RunState>;

export const RunError = z.object({ code: z.string(), message: z.string(), detail: ErrorDetail.optional() });
export type RunError = z.infer<typeof RunError>;

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
  /** Order within the conversation. */
  seq: z.number().int().min(0),
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
});
export type Message = z.infer<typeof Message>;

/** 'in-browser': a GGUF model stored on this device; the profile's `model` is its source (URL, or `file:<name>`). */
export const ProviderKind = z.enum(['scripted', 'openai-compatible', 'anthropic', 'in-browser']);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** A saved model profile. `apiKey` never leaves this origin except to `baseUrl`. */
export const Profile = z.object({
  id: z.string(),
  name: z.string().min(1).max(80),
  kind: ProviderKind,
  baseUrl: z.string().max(2000).default(''),
  apiKey: z.string().max(500).default(''),
  model: z.string().max(200).default(''),
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
});
export type Settings = z.infer<typeof Settings>;

/** An export file: every conversation with its messages. Profiles, and so API keys, are never part of it. */
export const ConversationExport = z.object({
  format: z.literal('parley-export'),
  version: z.literal(1),
  exportedAt: z.number(),
  conversations: z.array(z.object({ conversation: Conversation, messages: z.array(Message) })).max(100_000),
});
export type ConversationExport = z.infer<typeof ConversationExport>;

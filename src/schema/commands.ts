import { z } from 'zod';
import { QuestionAnswer, QuestionDraft } from './question';
import { ProviderKind } from './records';

const conversationId = z.string().min(1).max(100);
const recordId = z.string().min(1).max(100);

/** A profile as the Settings form submits it; an absent apiKey keeps the stored one. */
export const ProfileInput = z.object({
  id: recordId.optional(),
  name: z.string().trim().min(1).max(80),
  kind: ProviderKind,
  baseUrl: z.string().trim().max(2000).default(''),
  apiKey: z.string().trim().max(500).optional(),
  model: z.string().trim().max(200).default(''),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

/** Every command the UI may send to the worker. The worker validates each one with this schema. */
export const Command = z.discriminatedUnion('type', [
  z.object({ type: z.literal('conversation.list') }),
  /** `conversationId` lets the UI open the new view at once, before the reply; creating the same id twice is a no-op. */
  z.object({ type: z.literal('conversation.create'), title: z.string().trim().max(200).optional(), conversationId: conversationId.optional() }),
  /** The composer's unsent text (empty clears it). */
  z.object({ type: z.literal('conversation.saveDraft'), conversationId, text: z.string().max(100_000) }),
  z.object({ type: z.literal('conversation.rename'), conversationId, title: z.string().trim().min(1).max(200) }),
  z.object({ type: z.literal('conversation.delete'), conversationId }),
  z.object({ type: z.literal('conversation.open'), conversationId }),
  z.object({ type: z.literal('conversation.setProfile'), conversationId, profileId: recordId }),
  z.object({ type: z.literal('conversation.export') }),
  /** An export file's parsed JSON; the worker validates it whole before writing anything. */
  z.object({ type: z.literal('conversation.import'), data: z.unknown() }),
  z.object({ type: z.literal('message.send'), conversationId, text: z.string().trim().min(1).max(100_000) }),
  z.object({ type: z.literal('run.stop'), conversationId }),
  /** Continue an interrupted reply, or retry after an error or a network wait. */
  z.object({ type: z.literal('run.continue'), conversationId }),
  /** The page saw the browser come back online (workers are not always told): resume runs waiting for the network. */
  z.object({ type: z.literal('network.online') }),
  z.object({
    type: z.literal('question.answer'),
    conversationId,
    messageId: recordId,
    toolCallId: recordId,
    answers: z.array(QuestionAnswer).min(1).max(4),
  }),
  z.object({ type: z.literal('question.dismiss'), conversationId, messageId: recordId, toolCallId: recordId }),
  z.object({ type: z.literal('question.saveDraft'), conversationId, messageId: recordId, toolCallId: recordId, draft: QuestionDraft }),
  z.object({ type: z.literal('questions.listPending') }),
  z.object({ type: z.literal('settings.get') }),
  z.object({
    type: z.literal('settings.update'),
    script: z.string().max(1_000_000).optional(),
    defaultProfileId: recordId.optional(),
    locale: z.enum(['en', 'zh-CN']).optional(),
  }),
  z.object({ type: z.literal('profiles.list') }),
  z.object({ type: z.literal('profiles.save'), profile: ProfileInput }),
  z.object({ type: z.literal('profiles.delete'), profileId: recordId }),
  /** Check a profile's key and list the server's models; the stored key is used when none is given. */
  z.object({ type: z.literal('profiles.test'), profile: ProfileInput }),
  /** A page of a conversation's messages: the newest `limit` with `fromSeq <= seq < beforeSeq`, oldest first. */
  z.object({
    type: z.literal('conversation.messages'),
    conversationId,
    beforeSeq: z.number().int().min(0).optional(),
    fromSeq: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(100_000),
  }),
  /** The `seq` of every stored message of a conversation whose text contains `query` (case-insensitive), oldest first. */
  z.object({ type: z.literal('conversation.search'), conversationId, query: z.string().min(1).max(500) }),
]);
export type Command = z.infer<typeof Command>;
export type CommandType = Command['type'];
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

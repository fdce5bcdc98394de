import { z } from 'zod';
import { QuestionAnswer } from './question';
import { QuestionResolution } from './blocks';
import type { Question } from './question';
import type { CommandOf, CommandType } from './commands';
import type { AppEvent } from './events';
import type { Conversation, ConversationExport, Message, ProfileView, Settings } from './records';

import { ERROR_CODES, type ResolvedOutcome as ResolvedOutcomeType, type SerializedError as SerializedErrorType } from './wire-error';

export { WireError, ERROR_CODES } from './wire-error';

/** Error codes a command reply can carry (the list lives in the zod-free wire-error.ts). */
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** What an already-resolved question looked like when a second resolution arrived. */
export const ResolvedOutcome = z.object({
  resolution: QuestionResolution,
  answers: z.array(QuestionAnswer).optional(),
  resolvedAt: z.number().optional(),
});
export type ResolvedOutcome = ResolvedOutcomeType;

/** An error as it crosses postMessage: plain data, rebuilt into a WireError on the other side. */
export const SerializedError = z.object({
  code: ErrorCode,
  message: z.string(),
  /** Which field of the command was wrong, for invalid_command and invalid_answer. */
  field: z.string().optional(),
  outcome: ResolvedOutcome.optional(),
});
export type SerializedError = SerializedErrorType;

export interface PendingQuestion {
  conversationId: string;
  conversationTitle: string;
  messageId: string;
  toolCallId: string;
  questions: Question[];
}


export type { ConversationExport };

/** A state in an import file that cannot happen, changed into one that can; the UI words the code. */
export interface ImportRepair {
  conversationTitle: string;
  code: 'waiting_without_question' | 'question_not_waiting' | 'extra_pending_question';
}

export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  models?: string[];
}

/** The result each command's reply carries. */
export interface CommandResults {
  'conversation.list': Conversation[];
  'conversation.create': Conversation;
  'conversation.saveDraft': { saved: true };
  'conversation.rename': Conversation;
  'conversation.delete': { conversationId: string };
  /** `messages` is the newest page (reaching back to any pending question); `earlier` counts the stored messages before it. */
  'conversation.open': { conversation: Conversation; messages: Message[]; earlier?: number };
  'conversation.setProfile': Conversation;
  'conversation.export': ConversationExport;
  'conversation.import': { imported: number; skipped: number; repairs: ImportRepair[] };
  'message.send': { message: Message };
  'run.stop': { conversationId: string };
  'run.continue': { conversationId: string };
  'network.online': { resumed: true };
  'question.answer': { message: Message };
  'question.dismiss': { message: Message };
  'question.saveDraft': { saved: true };
  'questions.listPending': PendingQuestion[];
  'settings.get': Settings;
  'settings.update': Settings;
  'profiles.list': ProfileView[];
  'profiles.save': ProfileView;
  'profiles.delete': { profileId: string };
  'profiles.test': ConnectionTestResult;
  'conversation.messages': MessagePage;
  'conversation.search': { seqs: number[]; truncated: boolean };
}

/** Some of a conversation's messages, oldest first, and how many stored messages come before the first of them. */
export interface MessagePage {
  messages: Message[];
  earlier: number;
}
export type CommandResult<T extends CommandType> = CommandResults[T];
export type { CommandOf };

/** UI → worker. `command` is unknown on the wire: the worker validates it. */
export interface CommandEnvelope {
  kind: 'command';
  id: string;
  command: unknown;
}
export type ReplyEnvelope =
  | { kind: 'reply'; id: string; ok: true; result: unknown }
  | { kind: 'reply'; id: string; ok: false; error: SerializedError };
export interface EventEnvelope {
  kind: 'event';
  event: AppEvent;
}
export type WorkerMessage = ReplyEnvelope | EventEnvelope;

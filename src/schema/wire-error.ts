import type { AnyRequestResolution } from './messages/blocks';
import type { QuestionAnswer } from './forms/question';

/**
 * The error a command reply carries, without zod (types from the schemas are erased at build time): the UI imports
 * it on its first load. `protocol.ts` holds the schemas and re-exports all of this.
 */

/** Error codes a command reply can carry. The UI maps each to a sentence from its dictionary. */
export const ERROR_CODES = [
  'invalid_command',
  'not_found',
  'already_resolved',
  'invalid_answer',
  'invalid_state',
  'busy',
  'storage_full',
  /** A newer Parley upgraded the database in another tab: this tab must reload. */
  'app_outdated',
  'provider_error',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What exactly went wrong within a code, for the UI to word (with `params`). Each reason belongs to one code:
 * invalid_command (import_*, script, profile rules, malformed), not_found (*_gone), busy, invalid_state,
 * invalid_answer (answer_*, arguments_invalid, form_invalid), internal (save_failed).
 */
export const ERROR_REASONS = [
  'import_not_json',
  'import_not_export',
  'import_inconsistent',
  /** An export's files do not match its messages' (missing, extra, another size or kind). */
  'import_attachment_mismatch',
  'duplicate_message_id',
  /** A free-form field of an import (arguments, a schema, a form's answer) is not plain JSON within the limits. */
  'unsafe_data',
  'script_invalid',
  'scripted_profile_builtin',
  'scripted_profile_undeletable',
  'base_url_scheme',
  'malformed_command',
  'conversation_gone',
  'message_gone',
  'question_gone',
  'profile_gone',
  'run_in_other_tab',
  'run_in_progress',
  'nothing_to_continue',
  'answer_count',
  'answer_unknown_option',
  'answer_no_free_text',
  'answer_single_only',
  'answer_nothing',
  'save_failed',
  'request_gone',
  'arguments_invalid',
  'form_invalid',
  'elicitation_dead',
  'elicitation_pending',
  'draft_not_question',
  /** A file that cannot go with a message: `params` name it and the rule (see AttachmentRefusal). */
  'attachment_unsupported',
  'attachment_too_large',
  'attachment_too_many',
  'images_not_accepted',
  /** The files would not fit in what the browser lets Parley store (`params.needed`, `params.available`, bytes). */
  'attachments_over_quota',
  'attachment_gone',
  /** Sync: a file another device sent whose bytes have not all reached this device yet. */
  'attachment_syncing',
  /** A message with no text and no file. */
  'message_empty',
  /** An MCP server's name normalises to another's, so their tools' model-facing names would collide. */
  'server_name_taken',
  /** A new version or another version would leave a branch in which a request for the user waits: ask first. */
  'request_pending_in_branch',
  /** A profile of a remote provider saved without a model. */
  'profile_no_model',
  /** A message proposed by another device arrived twice (sync): it was sent once. */
  'already_sent',
  /** Sync: the conversation runs on another device; only "Continue on this device" lets this one change it. */
  'runs_elsewhere',
  /** Sync: another device took the conversation over first ("Continue on this device" lost the race). */
  'taken_over_elsewhere',
  /** Sync: turning it on failed; `params.said` may carry the server's words. */
  'sync_wrong_passphrase',
  'sync_unauthorized',
  'sync_unreachable',
  'sync_not_a_database',
  /** The database holds data but no key document: never replaced silently (`sync.enable` with `newKey` makes one). */
  'sync_key_missing',
  /** Sync: another device's decision named a request that is no longer the one waiting (asked again since). */
  'request_changed',
  /** Sync: a command that needs sync on while it is off. */
  'sync_off',
  /** Sync: another device proposed a command that only this device may give (scope other than `conversation`). */
  'not_proposable',
  /** Sync: another device's decision does not name the request its user saw (a build before that rule). */
  'outdated_device',
  /** Sync: a tool call approved on another device for arguments that differ from the call here. */
  'arguments_changed',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/** Values the UI puts into its sentence: names, counts, positions. Plain data, never a sentence. */
export type ErrorParams = Record<string, string | number>;

/** What an already-resolved request looked like when a second resolution arrived. */
export interface ResolvedOutcome {
  resolution: AnyRequestResolution;
  answers?: QuestionAnswer[] | undefined;
  resolvedAt?: number | undefined;
  /** With sync on: the device where it was decided. */
  resolvedOn?: { id: string; name: string } | undefined;
}

/** A state in an import file that cannot happen, changed into one that can; the UI words the code. */
export interface ImportRepair {
  conversationTitle: string;
  code: 'waiting_without_question' | 'question_not_waiting' | 'extra_pending_question' | 'tool_call_not_run';
  /** With `tool_call_not_run`: how many calls were closed unrun. */
  count?: number | undefined;
}

/**
 * An error as it crosses postMessage: plain data, rebuilt into a WireError on the other side. The UI words it
 * from `code`, `reason` and `params`; `message` is English for developers and logs, never the user's sentence.
 */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  reason?: ErrorReason | undefined;
  params?: ErrorParams | undefined;
  /** Which field of the command was wrong, for invalid_command and invalid_answer. */
  field?: string | undefined;
  outcome?: ResolvedOutcome | undefined;
  /** An import that failed part-way: what it repaired in the conversations it did write (as on success). */
  repairs?: ImportRepair[] | undefined;
}

/** A typed error with a code; thrown by the worker's handlers, rebuilt by the UI's client. */
export class WireError extends Error {
  override readonly name = 'WireError';
  readonly code: ErrorCode;
  readonly reason?: ErrorReason;
  readonly params?: ErrorParams;
  readonly field?: string;
  readonly outcome?: ResolvedOutcome;
  readonly repairs?: ImportRepair[];
  constructor(serialized: SerializedError, options?: { cause?: unknown }) {
    super(serialized.message, options);
    this.code = serialized.code;
    if (serialized.reason !== undefined) this.reason = serialized.reason;
    if (serialized.params !== undefined) this.params = serialized.params;
    if (serialized.field !== undefined) this.field = serialized.field;
    if (serialized.outcome !== undefined) this.outcome = serialized.outcome;
    if (serialized.repairs !== undefined) this.repairs = serialized.repairs;
  }
  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.params !== undefined ? { params: this.params } : {}),
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.outcome !== undefined ? { outcome: this.outcome } : {}),
      ...(this.repairs !== undefined ? { repairs: this.repairs } : {}),
    };
  }
}

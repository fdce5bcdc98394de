import type { QuestionResolution } from './blocks';
import type { QuestionAnswer } from './question';

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

/** What an already-resolved question looked like when a second resolution arrived. */
export interface ResolvedOutcome {
  resolution: QuestionResolution;
  answers?: QuestionAnswer[] | undefined;
  resolvedAt?: number | undefined;
}

/** An error as it crosses postMessage: plain data, rebuilt into a WireError on the other side. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  /** Which field of the command was wrong, for invalid_command and invalid_answer. */
  field?: string | undefined;
  outcome?: ResolvedOutcome | undefined;
}

/** A typed error with a code; thrown by the worker's handlers, rebuilt by the UI's client. */
export class WireError extends Error {
  override readonly name = 'WireError';
  readonly code: ErrorCode;
  readonly field?: string;
  readonly outcome?: ResolvedOutcome;
  constructor(serialized: SerializedError, options?: { cause?: unknown }) {
    super(serialized.message, options);
    this.code = serialized.code;
    if (serialized.field !== undefined) this.field = serialized.field;
    if (serialized.outcome !== undefined) this.outcome = serialized.outcome;
  }
  toJSON(): SerializedError {
    return {
      code: this.code,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.outcome !== undefined ? { outcome: this.outcome } : {}),
    };
  }
}

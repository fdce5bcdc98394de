import { createSignal } from 'solid-js';
import type { CommandOf, CommandResult, CommandType } from '../../schema/commands';
import { WireError, type ErrorReason } from '../../schema/wire-error';
import type { SendOptions, WorkerClient } from '../state/channel';
import type { ErrorWords } from './error-words';
import { wordError } from './lazy-error-words';

/** One failure shown to the user until dismissed or timed out: a sentence in the UI's language, and its detail. */
export interface Toast extends ErrorWords {
  id: number;
  /** The worker's reason, when it gave one: a toast that a later change made untrue can be taken away by it. */
  reason?: ErrorReason;
}

const TOAST_LIFETIME_MS = 8000;

/** The toasts on screen, and how to add and remove them. */
export function createToasts() {
  const [toasts, setToasts] = createSignal<Toast[]>([]);
  let nextId = 1;
  const dismiss = (id: number) => setToasts((current) => current.filter((toast) => toast.id !== id));
  // Shown once the error's words are here (they load with the first error), in the order the errors came.
  const report = (error: unknown) => {
    const id = nextId++;
    wordError(error).then(
      (words) => {
        const toast: Toast = { id, ...words, ...(error instanceof WireError && error.reason ? { reason: error.reason } : {}) };
        setToasts((current) => [...current.slice(-2), toast]);
        setTimeout(() => dismiss(toast.id), TOAST_LIFETIME_MS);
      },
      (failure: unknown) => console.error('Parley: an error could not be worded', error, failure),
    );
  };
  /** Takes away every toast given for `reason` (what it said is no longer true). */
  const dismissReason = (reason: ErrorReason) => setToasts((current) => current.filter((toast) => toast.reason !== reason));
  return { toasts, dismiss, dismissReason, report };
}

/**
 * True when the caller shows this failure in place: it said so when it sent the command (`showsErrors`), or the reason
 * is one every caller shows (a broken script beside the script in Settings; leaving a branch with a waiting request, and
 * a profile without a model, asked about in a dialog).
 */
function shownByCaller(options: SendOptions | undefined, error: unknown): boolean {
  return options?.showsErrors === true || (error instanceof WireError && (error.reason === 'script_invalid' || error.reason === 'request_pending_in_branch' || error.reason === 'profile_no_model'));
}

/**
 * Wraps a client so that every failed command is reported once, globally, and still rejects for its
 * caller. `already_resolved` is not reported: it is an answer (the first outcome), not a failure.
 */
export function createReportingClient(client: WorkerClient, report: (error: unknown) => void): WorkerClient {
  return {
    send<T extends CommandType>(command: CommandOf<T>, options?: SendOptions): Promise<CommandResult<T>> {
      return client.send(command, options).catch((error: unknown) => {
        if (!shownByCaller(options, error) && !(error instanceof WireError && error.code === 'already_resolved')) report(error);
        throw error;
      });
    },
    onEvent: (listener) => client.onEvent(listener),
  };
}

/** For callers that only need to know whether a command worked: failures were already reported. */
export async function settle<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch {
    return undefined;
  }
}

import { createSignal } from 'solid-js';
import type { CommandOf, CommandType } from '../schema/commands';
import type { CommandResult } from '../schema/protocol';
import { WireError } from '../schema/wire-error';
import type { WorkerClient } from './channel';
import { t } from './i18n/i18n';

/** One failure shown to the user until dismissed or timed out. */
export interface Toast {
  id: number;
  text: string;
}

const TOAST_LIFETIME_MS = 8000;

/** Turns any error into one sentence for the user; worker errors map their code through the dictionary. */
export function describeError(error: unknown): string {
  if (error instanceof WireError) {
    const sentence = t(`error.${error.code}`);
    const detail = error.message.trim();
    return detail && detail !== sentence ? `${sentence} ${detail}` : sentence;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return `${t('error.unexpected')} ${detail}`.trim();
}

/** The toasts on screen, and how to add and remove them. */
export function createToasts() {
  const [toasts, setToasts] = createSignal<Toast[]>([]);
  let nextId = 1;
  const dismiss = (id: number) => setToasts((current) => current.filter((toast) => toast.id !== id));
  const report = (error: unknown) => {
    const toast = { id: nextId++, text: describeError(error) };
    setToasts((current) => [...current.slice(-2), toast]);
    setTimeout(() => dismiss(toast.id), TOAST_LIFETIME_MS);
  };
  return { toasts, dismiss, report };
}

/** Commands whose callers show their failure in place (beside the control), so a toast would say it twice. */
const SHOWN_BY_CALLER: ReadonlySet<CommandType> = new Set(['conversation.import', 'profiles.test']);

/**
 * Wraps a client so that every failed command is reported once, globally, and still rejects for its
 * caller. `already_resolved` is not reported: it is an answer (the first outcome), not a failure.
 */
export function createReportingClient(client: WorkerClient, report: (error: unknown) => void): WorkerClient {
  return {
    send<T extends CommandType>(command: CommandOf<T>): Promise<CommandResult<T>> {
      return client.send(command).catch((error: unknown) => {
        const shownByCaller = SHOWN_BY_CALLER.has(command.type);
        if (!shownByCaller && !(error instanceof WireError && error.code === 'already_resolved')) report(error);
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

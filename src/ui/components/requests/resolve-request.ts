import { createSignal } from 'solid-js';
import type { WorkerClient } from '../../channel';
import { describeError, type ErrorWords } from '../../error-words';
import { WireError } from '../../../schema/wire-error';
import { t } from '../../i18n/i18n';

/** Where a request is, for `request.resolve`. */
export interface RequestTarget {
  conversationId: string;
  messageId: string;
  requestId: string;
}

/**
 * Sends one resolution and says what went wrong in words (with the checker's own words as detail: which field), or
 * nothing when it was stored. The store changes through the
 * worker's events (the resolved block arrives as a message update), not through this reply; a request resolved first
 * elsewhere (another tab) is not an error to the user: the block shows that outcome.
 */
export async function resolveRequest(
  client: Pick<WorkerClient, 'send'>,
  target: RequestTarget,
  resolution: { approved: boolean; params?: unknown; reason?: string; cancel?: boolean },
): Promise<ErrorWords | undefined> {
  try {
    await client.send({ type: 'request.resolve', ...target, ...resolution });
    return undefined;
  } catch (error) {
    if (error instanceof WireError && error.code === 'already_resolved') return { text: t('request.alreadyResolved') };
    return describeError(error);
  }
}

/** One request's resolver for a component: `send` marks it busy, and keeps the refusal (if any) in `error`. */
export function createResolver(client: Pick<WorkerClient, 'send'>, target: () => RequestTarget) {
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<ErrorWords>();
  const send = async (resolution: { approved: boolean; params?: unknown; reason?: string; cancel?: boolean }) => {
    // The command leaves first; the card's own re-render (busy, errors cleared) happens while the worker works.
    const resolving = resolveRequest(client, target(), resolution);
    setBusy(true);
    setError(undefined);
    const failure = await resolving;
    setBusy(false);
    if (failure) setError(failure);
  };
  return { busy, error, setError, send };
}

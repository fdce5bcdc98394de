import { createSignal } from 'solid-js';
import type { DeviceRef } from '../../schema/sync/device';
import type { WorkerClient } from '../state/channel';
import type { ErrorWords } from '../common/error-words';
import { wordError } from '../common/lazy-error-words';
import { WireError } from '../../schema/wire-error';
import { t } from '../i18n/i18n';

import type { RequestTarget } from '../../schema/protocol';

/** What became of one resolution: refused (`error`), sent as a proposal to the device that runs it, or stored (neither). */
interface ResolveOutcome {
  error?: ErrorWords;
  proposedTo?: DeviceRef;
}

/**
 * Sends one resolution and says what went wrong in words (with the checker's own words as detail: which field), or
 * to which device it went as a proposal (sync), or nothing when it was stored. The store changes through the
 * worker's events (the resolved block arrives as a message update), not through this reply; a request resolved first
 * elsewhere (another tab) is not an error to the user: the block shows that outcome.
 */
export async function resolveRequest(
  client: Pick<WorkerClient, 'send'>,
  target: RequestTarget,
  resolution: { approved: boolean; params?: unknown; reason?: string; cancel?: boolean },
): Promise<ResolveOutcome> {
  try {
    const result = await client.send({ type: 'request.resolve', ...target, ...resolution }, { showsErrors: true });
    return result.proposedTo ? { proposedTo: result.proposedTo } : {};
  } catch (error) {
    if (error instanceof WireError && error.code === 'already_resolved') return { error: { text: t('request.alreadyResolved') } };
    return { error: await wordError(error) };
  }
}

/**
 * One request's resolver for a component: `send` marks it busy, and keeps the refusal (if any) in `error`. A proposal
 * (`proposedTo`) keeps the controls disabled: the device that runs it decides, and this device proposes only once.
 */
export function createResolver(client: Pick<WorkerClient, 'send'>, target: () => RequestTarget) {
  const [sending, setSending] = createSignal(false);
  const [error, setError] = createSignal<ErrorWords>();
  const [proposedTo, setProposedTo] = createSignal<DeviceRef>();
  const send = async (resolution: { approved: boolean; params?: unknown; reason?: string; cancel?: boolean }) => {
    // The command leaves first; the card's own re-render (busy, errors cleared) happens while the worker works.
    const resolving = resolveRequest(client, target(), resolution);
    setSending(true);
    setError(undefined);
    const outcome = await resolving;
    setSending(false);
    if (outcome.error) setError(outcome.error);
    if (outcome.proposedTo) setProposedTo(outcome.proposedTo);
  };
  const busy = () => sending() || proposedTo() !== undefined;
  return { busy, error, setError, send, proposedTo };
}

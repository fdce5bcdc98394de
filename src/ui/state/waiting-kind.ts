import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import type { Message } from '../../schema/records';
import type { AppServices } from './app-context';
import { settle } from '../common/error-report';
import { listPendingRequests } from './pending-requests';
import type { MessageKey } from '../i18n/i18n';

import { requestViewOf, type WaitingKind } from '../requests/request-views';

export type { WaitingKind };

/** The kind of the first request still pending in these messages; undefined when none is (or they are not loaded). */
export function waitingKindInMessages(messages: readonly Message[] | undefined): WaitingKind | undefined {
  for (const message of messages ?? []) {
    if (message.pendingRequestId === undefined) continue;
    for (const block of message.blocks) {
      if (block.type === 'request' && block.status === 'pending') return requestViewOf(block).waiting;
    }
  }
  return undefined;
}

/**
 * The waiting kind of any conversation: from its loaded messages when it is open (they change first), else from the
 * worker's list of pending requests, read again when the set of waiting conversations changes. A question until known.
 */
export function createWaitingKinds(app: AppServices): (conversationId: string) => WaitingKind {
  const [listed, setListed] = createSignal<ReadonlyMap<string, WaitingKind>>(new Map());
  const pendingKey: Accessor<string> = () => app.state.pendingKey;
  createEffect(
    on(pendingKey, async (key) => {
      if (key === '') return setListed(new Map());
      const pending = await settle(listPendingRequests(app.client, key));
      if (!pending || key !== pendingKey()) return;
      const kinds = new Map<string, WaitingKind>();
      for (const request of pending) if (!kinds.has(request.conversationId)) kinds.set(request.conversationId, requestViewOf(request.request).waiting);
      setListed(kinds);
    }),
  );
  return (conversationId) => waitingKindInMessages(app.state.messages[conversationId]) ?? listed().get(conversationId) ?? 'question';
}

/** The list's pill, the header's status and the composer's hint, worded for each kind. */
export const WAITING_WORDS: Record<WaitingKind, { badge: MessageKey; status: MessageKey; hint: MessageKey }> = {
  question: { badge: 'conversations.pendingBadge', status: 'status.awaitingInput', hint: 'composer.questionHint' },
  approval: { badge: 'waiting.approvalBadge', status: 'waiting.approvalStatus', hint: 'waiting.approvalHint' },
  form: { badge: 'waiting.formBadge', status: 'waiting.formStatus', hint: 'waiting.formHint' },
};

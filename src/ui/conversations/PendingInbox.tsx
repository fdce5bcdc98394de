import { createEffect, createSignal, For, on, Show } from 'solid-js';
import type { PendingRequest } from '../../schema/protocol';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { listPendingRequests } from '../state/pending-requests';
import { navigate } from '../hash-route';
import { t } from '../i18n/i18n';
import { shownTitle } from '../chat/conversation-title';

/**
 * "Waiting for you": the questions pending in other conversations, from the worker's one indexed query, so none is
 * forgotten in a long list. Entries are buttons named by the question, so each conversation's link in the list stays
 * the only link named by its title.
 */
export function PendingInbox(props: { activeConversationId: string | undefined; onPicked?: () => void }) {
  const app = useApp();
  const [pending, setPending] = createSignal<PendingRequest[]>([]);
  // Derived in the store from the raw records: walking 10,000 conversations here, through the store, took 0.15 s on an import.
  const pendingKey = () => app.state.pendingKey;

  createEffect(
    on(pendingKey, async (key) => {
      if (key === '') return setPending([]);
      const listed = await settle(listPendingRequests(app.client, key));
      if (listed && key === pendingKey()) setPending(listed);
    }),
  );

  const elsewhere = () => pending().filter((item) => item.conversationId !== props.activeConversationId);

  return (
    <Show when={elsewhere().length > 0}>
      <section class="pending-inbox" aria-labelledby="pending-inbox-title">
        <h2 id="pending-inbox-title">{t('inbox.title', { count: elsewhere().length })}</h2>
        <ul>
          <For each={elsewhere()}>
            {(item) => (
              <li>
                <button
                  type="button"
                  class="pending-inbox-item"
                  aria-label={t(extraCount(item) > 0 ? 'inbox.itemLabelMore' : 'inbox.itemLabel', {
                    question: headline(item),
                    title: shownTitle(item.conversationTitle),
                    count: extraCount(item),
                  })}
                  onClick={() => {
                    navigate({ name: 'conversation', conversationId: item.conversationId });
                    props.onPicked?.();
                  }}
                >
                  <span class="pending-inbox-question">{headline(item)}</span>
                  <span class="pending-inbox-meta">
                    {shownTitle(item.conversationTitle)}
                    <Show when={extraCount(item) > 0}>{` · ${t('inbox.more', { count: extraCount(item) })}`}</Show>
                  </span>
                </button>
              </li>
            )}
          </For>
        </ul>
      </section>
    </Show>
  );
}

/** What the entry says first: the question, the tool waiting for approval, or the server's message. */
function headline(item: PendingRequest): string {
  switch (item.kind) {
    case 'question':
      return item.questions[0]?.question ?? '';
    case 'approval':
      return t(item.approval?.kind === 'rerun' ? 'inbox.rerun' : 'inbox.approval', { tool: item.toolName });
    case 'elicitation':
      return item.message;
  }
}

function extraCount(item: PendingRequest): number {
  return item.kind === 'question' ? item.questions.length - 1 : 0;
}

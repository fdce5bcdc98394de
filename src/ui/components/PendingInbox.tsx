import { createEffect, createSignal, For, on, Show } from 'solid-js';
import type { PendingQuestion } from '../../schema/protocol';
import { useApp } from '../app-context';
import { settle } from '../error-report';
import { navigate } from '../hash-route';
import { t } from '../i18n/i18n';

/**
 * "Waiting for you": the questions pending in other conversations, from the worker's one indexed query, so none is
 * forgotten in a long list. Entries are buttons named by the question, so each conversation's link in the list stays
 * the only link named by its title.
 */
export function PendingInbox(props: { activeConversationId: string | undefined; onPicked?: () => void }) {
  const app = useApp();
  const [pending, setPending] = createSignal<PendingQuestion[]>([]);
  const pendingKey = () =>
    app.state.conversationOrder
      .filter((id) => app.state.conversations[id]?.runState === 'awaiting_input')
      .map((id) => `${id}:${app.state.conversations[id]?.title ?? ''}`)
      .join('|');

  createEffect(
    on(pendingKey, async (key) => {
      if (key === '') return setPending([]);
      const listed = await settle(app.client.send({ type: 'questions.listPending' }));
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
                  aria-label={t(item.questions.length > 1 ? 'inbox.itemLabelMore' : 'inbox.itemLabel', {
                    question: item.questions[0]?.question ?? '',
                    title: item.conversationTitle,
                    count: item.questions.length - 1,
                  })}
                  onClick={() => {
                    navigate({ name: 'conversation', conversationId: item.conversationId });
                    props.onPicked?.();
                  }}
                >
                  <span class="pending-inbox-question">{item.questions[0]?.question}</span>
                  <span class="pending-inbox-meta">
                    {item.conversationTitle}
                    <Show when={item.questions.length > 1}>{` · ${t('inbox.more', { count: item.questions.length - 1 })}`}</Show>
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

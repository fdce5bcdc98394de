import { createSignal, For, Show } from 'solid-js';
import { useApp } from '../app-context';
import { settle } from '../error-report';
import { navigate, routeHash } from '../hash-route';
import { t } from '../i18n/i18n';
import { PendingInbox } from './PendingInbox';

export interface ConversationListProps {
  activeConversationId: string | undefined;
  /** Called after the user picked or created a conversation (the narrow layout closes the list). */
  onPicked?: () => void;
}

/**
 * "New conversation" and one link per conversation, newest first. The link's accessible name is the
 * title alone; a waiting question shows as a badge beside it, marked `data-pending="true"`.
 */
export function ConversationList(props: ConversationListProps) {
  const app = useApp();
  const [creating, setCreating] = createSignal(false);

  async function createConversation() {
    setCreating(true);
    const conversation = await settle(app.client.send({ type: 'conversation.create' }));
    setCreating(false);
    if (!conversation) return;
    app.dispatch({ type: 'conversation-upserted', conversation });
    navigate({ name: 'conversation', conversationId: conversation.id });
    props.onPicked?.();
  }

  return (
    <div class="conversation-list">
      <button type="button" class="button primary new-conversation" disabled={creating()} onClick={() => void createConversation()}>
        {t('conversations.new')}
      </button>
      <PendingInbox activeConversationId={props.activeConversationId} onPicked={props.onPicked} />
      <Show
        when={app.state.conversationOrder.length > 0}
        fallback={
          <Show when={app.state.conversationsLoaded}>
            <p class="conversation-list-empty">{t('conversations.empty')}</p>
          </Show>
        }
      >
        <ul class="conversation-items">
          <For each={app.state.conversationOrder}>
            {(conversationId) => {
              const conversation = () => app.state.conversations[conversationId];
              const title = () => conversation()?.title || t('conversation.untitled');
              const pending = () => conversation()?.runState === 'awaiting_input';
              const running = () => conversation()?.runState === 'running';
              const active = () => props.activeConversationId === conversationId;
              return (
                <li class="conversation-item" classList={{ active: active() }} data-pending={pending() ? 'true' : 'false'}>
                  <a
                    href={routeHash({ name: 'conversation', conversationId })}
                    aria-label={title()}
                    aria-current={active() ? 'page' : undefined}
                    onClick={() => props.onPicked?.()}
                  >
                    <span class="conversation-title">{title()}</span>
                    <Show when={running()}>
                      <span class="conversation-running" aria-hidden="true" />
                    </Show>
                  </a>
                  <Show when={pending()}>
                    <span class="badge">{t('conversations.pendingBadge')}</span>
                  </Show>
                </li>
              );
            }}
          </For>
        </ul>
      </Show>
    </div>
  );
}

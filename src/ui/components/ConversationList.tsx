import { For, Show } from 'solid-js';
import { trackCreation } from '../conversation-drafts';
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
function routeIs(conversationId: string): boolean {
  return window.location.hash === routeHash({ name: 'conversation', conversationId });
}

export function ConversationList(props: ConversationListProps) {
  const app = useApp();
  /**
   * The new conversation's view opens at once, in this task, with its composer focused: the id is made here, so
   * nothing typed right after the click can land in the previous conversation's composer.
   */
  function createConversation() {
    const conversationId = crypto.randomUUID();
    const created = settle(app.client.send({ type: 'conversation.create', conversationId }));
    trackCreation(conversationId, created);
    navigate({ name: 'conversation', conversationId });
    props.onPicked?.();
    queueMicrotask(() => document.querySelector<HTMLTextAreaElement>('textarea.composer-input')?.focus());
    void created.then((conversation) => {
      if (!conversation && routeIs(conversationId)) navigate({ name: 'home' });
    });
  }

  return (
    <div class="conversation-list">
      <button type="button" class="button primary new-conversation" onClick={() => createConversation()}>
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

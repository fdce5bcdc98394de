import { createMemo, createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import { unwrap } from 'solid-js/store';
import { trackCreation } from '../state/conversation-drafts';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { navigate, routeHash } from '../hash-route';
import { t } from '../i18n/i18n';
import { shownTitle } from '../chat/conversation-title';
import { ConversationListHead } from '../shell/AppFrame';
import { PendingInbox } from './PendingInbox';
import { createWaitingKinds, WAITING_WORDS } from '../state/waiting-kind';
import { rowOffsets, visibleRows } from '../messages/virtual-window';

/** Height (px) assumed for a conversation not measured yet; rows beyond the view are never in the DOM. */
const ESTIMATED_ITEM_HEIGHT = 40;
const OVERSCAN = 400;
const MAX_RENDERED_ITEMS = 80;

interface ConversationListProps {
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
  const waitingKind = createWaitingKinds(app);
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

  // Windowed: 10,000 conversations are 10,000 ids in the store but only the rows near the view are in the DOM.
  let list: HTMLUListElement | undefined;
  const heights = new Map<string, number>();
  const [measured, setMeasured] = createSignal(0);
  const [view, setView] = createSignal({ top: 0, height: 800 });
  const offsets = createMemo(() => {
    measured();
    // The order is replaced whole when it changes (store.ts): reading the property tracks it, and the raw array is read
    // without a store signal per id (10,000 of them on an import).
    return rowOffsets(unwrap(app.state.conversationOrder), heights, ESTIMATED_ITEM_HEIGHT);
  });
  const range = createMemo(() => visibleRows(offsets(), { ...view(), overscan: OVERSCAN, atBottom: false, max: MAX_RENDERED_ITEMS }));
  const shownIds = createMemo(() => app.state.conversationOrder.slice(range().start, range().end));
  const total = () => offsets()[offsets().length - 1] ?? 0;

  /** The part of the list the scrolling ancestor shows, in the list's own coordinates. */
  function readView() {
    const scroller = list?.parentElement?.closest<HTMLElement>('.conversation-nav') ?? undefined;
    if (!list || !scroller) return;
    const listTop = list.getBoundingClientRect().top;
    const scrollerTop = scroller.getBoundingClientRect().top;
    const height = scroller.clientHeight || 800;
    setView({ top: Math.max(0, scrollerTop - listTop), height });
  }

  const resizes =
    typeof ResizeObserver === 'undefined'
      ? undefined
      : new ResizeObserver((entries) => {
          const gap = list ? parseFloat(getComputedStyle(list).rowGap) || 0 : 0;
          let changed = false;
          for (const entry of entries) {
            const element = entry.target as HTMLElement;
            const id = element.dataset.conversationId;
            if (!id || !element.isConnected) continue;
            const height = element.offsetHeight + gap;
            if (element.offsetHeight > 0 && heights.get(id) !== height) {
              heights.set(id, height);
              changed = true;
            }
          }
          if (changed) setMeasured((count) => count + 1);
        });

  onMount(() => {
    const onScroll = () => readView();
    document.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    readView();
    onCleanup(() => {
      document.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
      resizes?.disconnect();
    });
  });

  return (
    <div class="conversation-list">
      <ConversationListHead onNew={createConversation} search={(query) => app.client.send({ type: 'conversations.search', query }).then((found) => found.results)} onPicked={props.onPicked} />
      <PendingInbox activeConversationId={props.activeConversationId} onPicked={props.onPicked} />
      <Show
        when={app.state.conversationOrder.length > 0}
        fallback={
          <Show when={app.state.conversationsLoaded}>
            <p class="conversation-list-empty">{t('conversations.empty')}</p>
          </Show>
        }
      >
        <ul
          ref={list}
          class="conversation-items"
          style={{ 'padding-top': `${offsets()[range().start] ?? 0}px`, 'padding-bottom': `${total() - (offsets()[range().end] ?? 0)}px` }}
        >
          <For each={shownIds()}>
            {(conversationId) => {
              const conversation = () => app.state.conversations[conversationId];
              const title = () => shownTitle(conversation()?.title ?? '');
              const pending = () => conversation()?.runState === 'awaiting_input';
              const running = () => conversation()?.runState === 'running';
              const active = () => props.activeConversationId === conversationId;
              return (
                <li
                  class="conversation-item"
                  classList={{ active: active() }}
                  data-pending={pending() ? 'true' : 'false'}
                  data-conversation-id={conversationId}
                  ref={(element) => {
                    resizes?.observe(element);
                    onCleanup(() => resizes?.unobserve(element));
                  }}
                >
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
                    <span class="badge">{t(WAITING_WORDS[waitingKind(conversationId)].badge)}</span>
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

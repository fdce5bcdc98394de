import { createMemo, createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import type { Message } from '../../schema/records';
import type { WorkerClient } from '../channel';
import { t } from '../i18n/i18n';
import { MessageView } from './MessageView';

export interface MessageListProps {
  /** Undefined until the conversation's messages were read: then it says "Opening…", not "No messages yet". */
  messages: readonly Message[] | undefined;
  client: WorkerClient;
}

/** How close to the bottom (px) still counts as "reading the latest", so streaming keeps it in view. */
const STICK_DISTANCE = 80;

/** How many of the newest messages are in the page at first; "Show earlier messages" adds this many more. */
export const MESSAGE_WINDOW = 60;

/** The conversation as a `role="log"` region named "Messages"; follows new text unless the user scrolled up. */
export function MessageList(props: MessageListProps) {
  let log!: HTMLDivElement;
  let stickToBottom = true;
  // A long conversation keeps the page light: only its newest messages are rendered until more are asked for.
  const [shown, setShown] = createSignal(MESSAGE_WINDOW);
  const all = () => props.messages ?? [];
  const hidden = () => Math.max(0, all().length - shown());
  const visible = createMemo(() => (hidden() > 0 ? all().slice(hidden()) : all()));

  function showEarlier(): void {
    // Keep the message the user was looking at where it is while more appear above it.
    const before = log.scrollHeight - log.scrollTop;
    stickToBottom = false;
    setShown(shown() + MESSAGE_WINDOW);
    log.scrollTop = log.scrollHeight - before;
  }

  onMount(() => {
    const scrollToEnd = () => {
      if (stickToBottom) log.scrollTop = log.scrollHeight;
    };
    const observer = new MutationObserver(scrollToEnd);
    observer.observe(log, { childList: true, subtree: true, characterData: true });
    scrollToEnd();
    onCleanup(() => observer.disconnect());
  });

  return (
    <div
      ref={log}
      class="message-list"
      role="log"
      aria-label={t('messages.label')}
      tabIndex={0}
      onScroll={() => {
        stickToBottom = log.scrollHeight - log.scrollTop - log.clientHeight < STICK_DISTANCE;
      }}
    >
      <Show when={props.messages === undefined}>
        <p class="message-list-empty">{t('chat.loading')}</p>
      </Show>
      <Show when={props.messages?.length === 0}>
        <p class="message-list-empty">{t('messages.empty')}</p>
      </Show>
      <Show when={hidden() > 0}>
        <button type="button" class="button show-earlier" onClick={showEarlier}>
          {t('messages.showEarlier', { count: hidden() })}
        </button>
      </Show>
      <For each={visible()}>{(message) => <MessageView message={message} client={props.client} />}</For>
    </div>
  );
}

import { For, onCleanup, onMount, Show } from 'solid-js';
import type { Message } from '../../schema/records';
import type { WorkerClient } from '../channel';
import { t } from '../i18n/i18n';
import { MessageView } from './MessageView';

export interface MessageListProps {
  messages: readonly Message[];
  client: WorkerClient;
}

/** How close to the bottom (px) still counts as "reading the latest", so streaming keeps it in view. */
const STICK_DISTANCE = 80;

/** The conversation as a `role="log"` region named "Messages"; follows new text unless the user scrolled up. */
export function MessageList(props: MessageListProps) {
  let log!: HTMLDivElement;
  let stickToBottom = true;

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
      <Show when={props.messages.length === 0}>
        <p class="message-list-empty">{t('messages.empty')}</p>
      </Show>
      <For each={props.messages}>{(message) => <MessageView message={message} client={props.client} />}</For>
    </div>
  );
}

import { createSignal, createUniqueId, For, lazy, Show, Suspense } from 'solid-js';
import type { Message } from '../../schema/records';
import type { WorkerClient } from '../state/channel';
import { locale, plural, t, withStrings } from '../i18n/i18n';
import { BlockView } from './block-views';
import { CopyMessage, messageSource } from './CopyMessage';
import { BranchActions, MessageEditor } from './BranchActions';
import { MoreIcon } from '../common/icons';
import './message-actions.css';

// Files sent with a message load their view (and thumbnails) when such a message is shown.
const MessageAttachments = lazy(() => withStrings('views', () => import('../attachments/AttachmentChips')).then((module) => ({ default: module.MessageAttachments })));

interface MessageViewProps {
  message: Message;
  client: WorkerClient;
}

/** One message as an `<article>` named "You" or "Parley", with its status in `data-status`. */
export function MessageView(props: MessageViewProps) {
  const isAssistant = () => props.message.role === 'assistant';
  const hasErrorBlock = () => props.message.blocks.some((block) => block.type === 'error');
  const [editing, setEditing] = createSignal(false);
  // On a touch screen your own message's actions wait behind "Message actions"; with a pointer they show on hover/focus.
  const [actionsOpen, setActionsOpen] = createSignal(false);
  const actionsId = `message-actions-${createUniqueId()}`;
  // Nothing was written yet (the run waits for the network or the server): not an interrupted reply, and no error.
  const notStarted = () => props.message.status === 'interrupted' && props.message.blocks.length === 0;
  const statusLabel = () => {
    switch (props.message.status) {
      case 'interrupted':
        return notStarted() ? t('message.notStarted') : t('message.interrupted');
      case 'stopped':
        return t('message.stopped');
      case 'error':
        return hasErrorBlock() ? undefined : t('message.failed');
      default:
        return undefined;
    }
  };
  return (
    <article
      class="message"
      classList={{ 'message-user': !isAssistant(), 'message-assistant': isAssistant() }}
      aria-label={isAssistant() ? t('message.assistant') : t('message.user')}
      data-status={props.message.status}
      dir="auto"
      onClick={(event) => {
        if (!isAssistant() && !editing() && tapOpensActions(event)) setActionsOpen(!actionsOpen());
      }}
    >
      <Show when={!editing()} fallback={<MessageEditor message={props.message} onDone={() => setEditing(false)} />}>
        <For each={props.message.blocks}>
          {(block) => (
            // Each block its own boundary: while a card's or a form's code loads, only that block waits.
            <Suspense fallback={null}>
              <BlockView block={block} message={props.message} client={props.client} />
            </Suspense>
          )}
        </For>
      </Show>
      <Show when={props.message.attachments?.length ? props.message.attachments : undefined}>
        {(attachments) => (
          // Its own boundary: while the chips' code loads, only this row waits, never the log around it.
          <Suspense fallback={null}>
            <MessageAttachments attachments={attachments()} client={props.client} />
          </Suspense>
        )}
      </Show>
      <Show when={props.message.status === 'streaming'}>
        <span class="message-cursor" aria-hidden="true" />
      </Show>
      <Show when={statusLabel()}>
        <p class="message-status" classList={{ 'message-status--waiting': notStarted() }} data-status={props.message.status}>
          {statusLabel()}
        </p>
      </Show>
      <Show when={isAssistant() ? props.message.notices : undefined}>
        {(notices) => (
          <For each={notices()}>{(notice) => <Show when={noticeText(notice)}>{(text) => <p class="message-notice">{text()}</p>}</Show>}</For>
        )}
      </Show>
      <Show when={isAssistant() && formatUsage(props.message.usage)}>
        {(usage) => <p class="message-usage">{usage()}</p>}
      </Show>
      <Show when={!editing()}>
        <div class="message-actions" id={actionsId} data-open={actionsOpen() ? 'true' : 'false'}>
          <Show when={messageSource(props.message) !== ''}>
            <CopyMessage message={props.message} />
          </Show>
          <BranchActions message={props.message} onEdit={() => setEditing(true)} />
        </div>
        <Show when={!isAssistant()}>
          <button
            type="button"
            class="button icon-button small message-actions-toggle"
            aria-label={t('message.actions')}
            aria-expanded={actionsOpen()}
            aria-controls={actionsId}
            onClick={() => setActionsOpen(!actionsOpen())}
          >
            <MoreIcon />
          </button>
        </Show>
      </Show>
    </article>
  );
}

/** A fine pointer that hovers shows the actions on hover; elsewhere they wait behind "Message actions" (message-actions.css). */
const HOVER_POINTER = '(hover: hover) and (pointer: fine)';

/**
 * Whether a click on your own message's bubble opens or closes its actions, as a tap does in the chat apps a phone user
 * knows: on a touch screen, not on a control inside it (a button, a link, a chip) and not ending a text selection.
 */
function tapOpensActions(event: MouseEvent): boolean {
  if (typeof matchMedia === 'undefined' || matchMedia(HOVER_POINTER).matches) return false;
  const target = event.target as Element | null;
  if (!target || target.closest('button, a, input, textarea, select, summary, label')) return false;
  return document.getSelection()?.isCollapsed ?? true;
}

/** A notice stored on a reply (see `Message.notices`), in words; '' for one this version does not know. */
function noticeText(notice: NonNullable<Message['notices']>[number]): string {
  switch (notice.key) {
    case 'tools_left_out': {
      const tokens = Number(notice.params?.tokens);
      return t('message.notice.toolsLeftOut', { tokens: Number.isFinite(tokens) ? new Intl.NumberFormat(locale()).format(tokens) : '?' });
    }
    case 'files_not_here':
      return t('message.notice.filesNotHere');
    default:
      return '';
  }
}

/** The usage line under a reply: "12 tokens in · 1 token out", in the plural forms of the UI's language. */
export function formatUsage(usage: Message['usage']): string {
  const parts: string[] = [];
  if (!usage) return '';
  if (usage.inputTokens !== undefined) parts.push(t(plural(usage.inputTokens, 'message.usageInOne', 'message.usageIn'), { count: usage.inputTokens }));
  if (usage.outputTokens !== undefined) parts.push(t(plural(usage.outputTokens, 'message.usageOutOne', 'message.usageOut'), { count: usage.outputTokens }));
  if (usage.tokensPerSecond !== undefined) parts.push(t('message.usageSpeed', { rate: Math.round(usage.tokensPerSecond * 10) / 10 }));
  return parts.join(' · ');
}

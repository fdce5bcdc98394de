import { For, Match, Show, Switch } from 'solid-js';
import type { Block } from '../../schema/blocks';
import type { Message } from '../../schema/records';
import type { WorkerClient } from '../channel';
import { t } from '../i18n/i18n';
import { Markdown } from './Markdown';
import { ToolCallCard } from './ToolCallCard';
import { QuestionForm } from './question/QuestionForm';

export interface MessageViewProps {
  message: Message;
  client: WorkerClient;
}

/** One message as an `<article>` named "You" or "Parley", with its status in `data-status`. */
export function MessageView(props: MessageViewProps) {
  const isAssistant = () => props.message.role === 'assistant';
  const hasErrorBlock = () => props.message.blocks.some((block) => block.type === 'error');
  const statusLabel = () => {
    switch (props.message.status) {
      case 'interrupted':
        // Nothing was written yet (the run waits for the network or the server): not an interrupted reply.
        return props.message.blocks.length === 0 ? t('message.notStarted') : t('message.interrupted');
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
    >
      <For each={props.message.blocks}>
        {(block) => <BlockView block={block} message={props.message} client={props.client} />}
      </For>
      <Show when={props.message.status === 'streaming'}>
        <span class="message-cursor" aria-hidden="true" />
      </Show>
      <Show when={statusLabel()}>
        <p class="message-status" data-status={props.message.status}>
          {statusLabel()}
        </p>
      </Show>
      <Show when={isAssistant() && formatUsage(props.message.usage)}>
        {(usage) => <p class="message-usage">{usage()}</p>}
      </Show>
    </article>
  );
}

function BlockView(props: { block: Block; message: Message; client: WorkerClient }) {
  return (
    <Switch>
      <Match when={props.block.type === 'text' && props.block}>
        {(block) =>
          props.message.role === 'assistant' ? (
            <Markdown text={block().text} />
          ) : (
            <p class="message-text">{block().text}</p>
          )
        }
      </Match>
      <Match when={props.block.type === 'reasoning' && props.block}>
        {(block) => (
          <details class="reasoning">
            <summary>{t('message.reasoning')}</summary>
            <p class="reasoning-text">{block().text}</p>
          </details>
        )}
      </Match>
      <Match when={props.block.type === 'tool_call' && props.block}>{(block) => <ToolCallCard block={block()} />}</Match>
      <Match when={props.block.type === 'question_request' && props.block}>
        {(block) => (
          <QuestionForm
            block={block()}
            conversationId={props.message.conversationId}
            messageId={props.message.id}
            client={props.client}
          />
        )}
      </Match>
      <Match when={props.block.type === 'error' && props.block}>
        {(block) => (
          <div class="error-block" role="alert">
            {block().message}
          </div>
        )}
      </Match>
    </Switch>
  );
}

function formatUsage(usage: Message['usage']): string {
  const parts: string[] = [];
  if (!usage) return '';
  if (usage.inputTokens !== undefined) parts.push(t('message.usageIn', { count: usage.inputTokens }));
  if (usage.outputTokens !== undefined) parts.push(t('message.usageOut', { count: usage.outputTokens }));
  return parts.join(' · ');
}

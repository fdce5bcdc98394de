import { Show } from 'solid-js';
import type { ToolCallBlock } from '../../schema/messages/blocks';
import { t } from '../i18n/i18n';
import { LongText } from '../messages/LongText';
import { formatArguments } from './tool-arguments';

/**
 * A call that waits for nothing yet — about to run, or a question's call about to become its form — as the top of its
 * card: its name, its status and its arguments, in the card's own classes, so the full card (ToolCallCard.tsx, loaded
 * once the call runs or asks for approval) takes its place without a jump. A first conversation's question loads none
 * of the card's code.
 */
export function QueuedToolCall(props: { block: ToolCallBlock }) {
  const status = () => (props.block.status === 'pending' ? t('tool.status.pending') : props.block.status === 'running' ? t('tool.status.running') : '');
  const argumentsText = () => formatArguments(props.block.args);
  return (
    <div class="tool-call" data-status={props.block.status}>
      <div class="tool-call-header">
        <span class="tool-call-name">{t('tool.label', { name: props.block.toolName })}</span>
        <span class="tool-call-status">{status()}</span>
      </div>
      <Show when={argumentsText()}>
        <details class="tool-call-details">
          <summary>{t('tool.arguments')}</summary>
          <LongText tag="pre" class="tool-call-arguments" text={argumentsText()} />
        </details>
      </Show>
    </div>
  );
}

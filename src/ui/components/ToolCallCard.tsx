import { Show } from 'solid-js';
import type { ToolCallBlock } from '../../schema/blocks';
import { t, type MessageKey } from '../i18n/i18n';

const STATUS_KEYS: Record<ToolCallBlock['status'], MessageKey> = {
  pending: 'tool.status.pending',
  success: 'tool.status.success',
  error: 'tool.status.error',
};

/** A tool call as a compact card: name, status, arguments on demand, and its result (errors in plain sight). */
export function ToolCallCard(props: { block: ToolCallBlock }) {
  const argumentsText = () => formatArguments(props.block.args);
  return (
    <div class="tool-call" data-status={props.block.status}>
      <div class="tool-call-header">
        <span class="tool-call-name">{t('tool.label', { name: props.block.toolName })}</span>
        <span class="tool-call-status">{t(STATUS_KEYS[props.block.status])}</span>
      </div>
      <Show when={argumentsText()}>
        <details class="tool-call-details">
          <summary>{t('tool.arguments')}</summary>
          <pre>{argumentsText()}</pre>
        </details>
      </Show>
      <Show when={props.block.result !== undefined && props.block.status === 'error'}>
        <pre class="tool-call-result error">{props.block.result}</pre>
      </Show>
      <Show when={props.block.result !== undefined && props.block.status !== 'error'}>
        <details class="tool-call-details">
          <summary>{t('tool.result')}</summary>
          <pre class="tool-call-result">{props.block.result}</pre>
        </details>
      </Show>
    </div>
  );
}

function formatArguments(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

import { For, Show } from 'solid-js';
import type { ToolCallBlock } from '../../schema/blocks';
import type { WorkerClient } from '../channel';
import { t, type MessageKey } from '../i18n/i18n';
import { ApprovalControls } from './requests/ApprovalControls';
import './requests/requests.css';

const STATUS_KEYS: Record<ToolCallBlock['status'], MessageKey> = {
  pending: 'tool.status.pending',
  running: 'tool.status.running',
  success: 'tool.status.success',
  error: 'tool.status.error',
  denied: 'tool.status.denied',
  stopped: 'tool.status.stopped',
  interrupted: 'tool.status.interrupted',
};

type Hint = 'readOnly' | 'destructive' | 'openWorld';
const HINT_KEYS: Record<Hint, MessageKey> = { readOnly: 'tool.hint.readOnly', destructive: 'tool.hint.destructive', openWorld: 'tool.hint.openWorld' };

const OUTCOME_KEYS: Record<NonNullable<NonNullable<ToolCallBlock['approval']>['resolution']>, MessageKey> = {
  approved: 'tool.outcome.approved',
  edited: 'tool.outcome.edited',
  denied: 'tool.outcome.denied',
  chat: 'tool.outcome.chat',
  stopped: 'tool.outcome.stopped',
  imported: 'tool.outcome.imported',
};

/**
 * A tool call as a compact card: name (and server), status, the server's hints, arguments on demand, its result (errors
 * in plain sight), and what the user decided. While it waits for the user it is a group named "Tool call: <name>"
 * holding the approval controls.
 */
export function ToolCallCard(props: { block: ToolCallBlock; conversationId: string; messageId: string; client: Pick<WorkerClient, 'send'> }) {
  const waiting = () => props.block.approval?.status === 'pending';
  const argumentsText = () => formatArguments(props.block.args);
  const hints = () => annotationHints(props.block);
  return (
    <div
      class="tool-call"
      data-status={waiting() ? 'waiting' : props.block.status}
      role={waiting() ? 'group' : undefined}
      aria-label={waiting() ? t('tool.group', { name: props.block.toolName }) : undefined}
    >
      <div class="tool-call-header">
        <span class="tool-call-name">{t('tool.label', { name: props.block.toolName })}</span>
        <Show when={props.block.source}>{(source) => <span class="tool-call-server">{t('tool.from', { server: source().serverName })}</span>}</Show>
        <span class="tool-call-status">{waiting() && props.block.approval?.kind === 'permission' ? t('tool.status.waiting') : t(STATUS_KEYS[props.block.status])}</span>
      </div>
      <Show when={hints().length > 0}>
        <ul class="tool-call-hints" title={t('tool.hint.note')}>
          <For each={hints()}>{(hint) => <li data-hint={hint}>{t(HINT_KEYS[hint])}</li>}</For>
        </ul>
      </Show>
      <Show when={argumentsText()}>
        <details class="tool-call-details" open={waiting() && props.block.approval?.kind === 'permission'}>
          <summary>{t('tool.arguments')}</summary>
          <pre>{argumentsText()}</pre>
        </details>
      </Show>
      <Show when={props.block.approval?.originalArgs !== undefined}>
        <details class="tool-call-details">
          <summary>{t('tool.originalArguments')}</summary>
          <pre>{formatArguments(props.block.approval?.originalArgs)}</pre>
        </details>
      </Show>
      <Show when={waiting()}>
        <ApprovalControls block={props.block} target={{ conversationId: props.conversationId, messageId: props.messageId, requestId: props.block.toolCallId }} client={props.client} />
      </Show>
      <Show when={!waiting() && outcomeText(props.block)}>{(text) => <p class="tool-call-outcome">{text()}</p>}</Show>
      <Show when={props.block.result !== undefined && props.block.status !== 'success' && props.block.approval?.resolution !== 'imported'}>
        <pre class="tool-call-result error">{props.block.result}</pre>
      </Show>
      <Show when={props.block.result !== undefined && props.block.status === 'success'}>
        <details class="tool-call-details">
          <summary>{t('tool.result')}</summary>
          <pre class="tool-call-result">{props.block.result}</pre>
        </details>
      </Show>
    </div>
  );
}

/** The server's annotations as words a user reads (hints, not guarantees). */
function annotationHints(block: ToolCallBlock): Hint[] {
  const annotations = block.source?.annotations;
  if (!annotations) return [];
  const hints: Hint[] = [];
  if (annotations.readOnlyHint) hints.push('readOnly');
  else if (annotations.destructiveHint !== false) hints.push('destructive');
  if (annotations.openWorldHint) hints.push('openWorld');
  return hints;
}

/** What the user decided, in a few words; empty for calls nobody was asked about. */
function outcomeText(block: ToolCallBlock): string {
  const approval = block.approval;
  if (!approval?.resolution) return '';
  if (approval.kind === 'rerun') {
    if (approval.resolution === 'approved') return t('tool.outcome.rerun');
    if (approval.resolution === 'denied') return t('tool.outcome.skipped');
  }
  if (approval.resolution === 'denied' && approval.reason) return t('tool.outcome.deniedWithReason', { reason: approval.reason });
  return t(OUTCOME_KEYS[approval.resolution]);
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

import { For, lazy, Show, Suspense } from 'solid-js';
import type { ApprovalRequest, ApprovalResolution, ToolCallBlock } from '../../schema/messages/blocks';
import type { ToolProgress } from '../../schema/events';
import type { WorkerClient } from '../state/channel';
import { navigate, routeHash } from '../hash-route';
import { t, type MessageKey } from '../i18n/i18n';
import { LongText } from '../messages/LongText';
import { formatArguments } from './tool-arguments';
import { decidedElsewhere, deviceName } from '../sync/device-name';
import './requests.css';
import './tool-call.css';

/**
 * An approval's controls (Allow, Deny, the edited arguments' fields), shown while the call waits: the card of a call
 * that waits for nothing (a question's, a finished call's) loads none of their code.
 */
const ApprovalControls = lazy(() => import('./ApprovalControls').then((module) => ({ default: module.ApprovalControls })));

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

const OUTCOME_KEYS: Record<ApprovalResolution, MessageKey> = {
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
export function ToolCallCard(props: {
  block: ToolCallBlock;
  /** What the user was asked about this call (the request beside it in its message), if anything. */
  approval?: ApprovalRequest | undefined;
  conversationId: string;
  messageId: string;
  client: Pick<WorkerClient, 'send'>;
  progress?: ToolProgress | undefined;
  /** This device's id (sync): a decision made on another device says where. */
  thisDevice?: string | undefined;
}) {
  const waiting = () => props.approval?.status === 'pending';
  const permission = () => permissionEffect(props.block, props.approval);
  const statusText = () => {
    if (waiting() && props.approval?.kind === 'permission') return t('tool.status.waiting');
    return permission() === 'never' ? t('tool.status.notRun') : t(STATUS_KEYS[props.block.status]);
  };
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
        <span class="tool-call-status">{statusText()}</span>
      </div>
      <Show when={hints().length > 0}>
        <ul class="tool-call-hints" title={t('tool.hint.note')}>
          <For each={hints()}>{(hint) => <li data-hint={hint}>{t(HINT_KEYS[hint])}</li>}</For>
        </ul>
      </Show>
      <Show when={argumentsText()}>
        <details class="tool-call-details" open={waiting() && props.approval?.kind === 'permission'}>
          <summary>{t('tool.arguments')}</summary>
          <LongText tag="pre" class="tool-call-arguments" text={argumentsText()} />
        </details>
      </Show>
      <Show when={props.block.originalArgs !== undefined}>
        <details class="tool-call-details">
          <summary>{t('tool.originalArguments')}</summary>
          <LongText tag="pre" class="tool-call-arguments" text={formatArguments(props.block.originalArgs)} />
        </details>
      </Show>
      <Show when={waiting()}>
        {/* Its own boundary: while the controls' code loads, the card around them shows. */}
        <Suspense fallback={null}>
          <ApprovalControls block={props.block} rerun={props.approval?.kind === 'rerun'} target={{ conversationId: props.conversationId, messageId: props.messageId, requestId: props.block.toolCallId }} client={props.client} />
        </Suspense>
      </Show>
      <Show when={props.block.status === 'running' && props.progress}>{(progress) => <ProgressLine name={props.block.toolName} progress={progress()} />}</Show>
      <Show when={!waiting() && outcomeText(props.approval)}>
        {(text) => (
          <p class="tool-call-outcome">
            {text()}
            <Show when={decidedElsewhere(props.approval?.resolvedOn, props.thisDevice) ? props.approval?.resolvedOn : undefined}>
              {(device) => <span class="decided-on"> · {t('sync.decidedOn', { device: deviceName(device()) })}</span>}
            </Show>
          </p>
        )}
      </Show>
      <Show when={permission()}>
        {(effect) => (
          <p class="tool-call-outcome" data-permission={effect()}>
            {t(effect() === 'never' ? 'tool.never' : props.block.status === 'running' ? 'tool.allowed.running' : 'tool.allowed.ran')}{' '}
            <PermissionLink name={props.block.toolName} />
          </p>
        )}
      </Show>
      {/* A cut-off call is worded here once: the "Run again?" question says it while it waits, this note afterwards. */}
      <Show when={props.block.status === 'interrupted' && !waiting()}>
        <p class="tool-call-outcome">{t('tool.interruptedNote')}</p>
      </Show>
      <Show when={props.block.result !== undefined && props.block.status !== 'success' && props.block.status !== 'interrupted' && permission() !== 'never' && props.approval?.resolution !== 'imported'}>
        <LongText tag="pre" class="tool-call-result error" text={props.block.result!} />
      </Show>
      <Show when={props.block.result !== undefined && props.block.status === 'success'}>
        <details class="tool-call-details">
          <summary>{t('tool.result')}</summary>
          <LongText tag="pre" class="tool-call-result" text={props.block.result!} />
        </details>
      </Show>
    </div>
  );
}

/**
 * What the tool's permission did to a call nobody was asked about: `allow` (an MCP tool that ran, or runs, without
 * asking: only a run marks a call with its `source`, and an asked call has an approval beside it), `never` (refused as
 * the user's choice: `denied` with no decision of theirs), or nothing.
 */
function permissionEffect(block: ToolCallBlock, approval: ApprovalRequest | undefined): 'allow' | 'never' | undefined {
  if (!block.source || approval) return undefined;
  if (block.status === 'denied') return 'never';
  return block.status === 'running' || block.status === 'success' || block.status === 'error' || block.status === 'stopped' ? 'allow' : undefined;
}

/** Opens Settings at the tool's permission select (a link, so it can also open in a new tab). */
function PermissionLink(props: { name: string }) {
  const route = () => ({ name: 'settings' as const, tool: props.name });
  return (
    <a
      class="tool-call-permission-link"
      href={routeHash(route())}
      aria-label={t('tool.changePermissionOf', { name: props.name })}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(route());
      }}
    >
      {t('tool.changePermission')}
    </a>
  );
}

/** A running tool's progress as its server reports it: a bar named by the tool, the step, and the server's words. */
function ProgressLine(props: { name: string; progress: ToolProgress }) {
  const total = () => (props.progress.total !== undefined && props.progress.total > 0 ? props.progress.total : undefined);
  const label = () => t('tool.progress', { name: props.name });
  return (
    <div class="tool-call-progress">
      {/* Without a total the bar is indeterminate: a bar with no value at all (the `value` property cannot be unset). */}
      <Show when={total()} fallback={<progress aria-label={label()} />}>
        {(max) => <progress aria-label={label()} max={max()} value={Math.min(props.progress.progress, max())} />}
      </Show>
      <span class="tool-call-progress-text">
        {total() === undefined ? String(props.progress.progress) : t('tool.progressStep', { progress: props.progress.progress, total: total()! })}
        <Show when={props.progress.message}>{(message) => <> · {message()}</>}</Show>
      </span>
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
function outcomeText(approval: ApprovalRequest | undefined): string {
  if (!approval?.resolution) return '';
  if (approval.kind === 'rerun') {
    if (approval.resolution === 'approved') return t('tool.outcome.rerun');
    if (approval.resolution === 'denied') return t('tool.outcome.skipped');
  }
  const reason = approval.response?.reason;
  if (approval.resolution === 'denied' && reason) return t('tool.outcome.deniedWithReason', { reason });
  return t(OUTCOME_KEYS[approval.resolution]);
}

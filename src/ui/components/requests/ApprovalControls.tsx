import { createSignal, Show } from 'solid-js';
import type { ToolCallBlock } from '../../../schema/blocks';
import type { WorkerClient } from '../../channel';
import { t } from '../../i18n/i18n';
import { resolveRequest, type RequestTarget } from './resolve-request';

/**
 * What the user decides for a tool call: Allow, Deny (with an optional reason the model reads), or Edit arguments first
 * (JSON, checked by the worker against the tool's schema before anything runs). For a call cut off by a crash: Run
 * again or Skip. Nothing here changes the store: the resolved block comes back as a worker event.
 */
export function ApprovalControls(props: { block: ToolCallBlock; target: RequestTarget; client: Pick<WorkerClient, 'send'> }) {
  const [editing, setEditing] = createSignal(false);
  const [argumentsText, setArgumentsText] = createSignal('');
  const [reason, setReason] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string>();
  const rerun = () => props.block.approval?.kind === 'rerun';
  const fieldId = `arguments-${props.target.requestId}`;
  const reasonId = `reason-${props.target.requestId}`;

  const send = async (resolution: { approved: boolean; params?: unknown; reason?: string }) => {
    setBusy(true);
    setError(undefined);
    const failure = await resolveRequest(props.client, props.target, resolution);
    setBusy(false);
    if (failure) setError(failure);
  };

  const allow = () => {
    if (!editing()) return void send({ approved: true });
    let params: unknown;
    try {
      params = JSON.parse(argumentsText());
    } catch (parseError) {
      setError(t('tool.argumentsInvalid', { detail: parseError instanceof Error ? parseError.message : String(parseError) }));
      return;
    }
    void send({ approved: true, params });
  };

  const startEditing = () => {
    setArgumentsText(JSON.stringify(props.block.args ?? {}, null, 2));
    setEditing(true);
    queueMicrotask(() => document.getElementById(fieldId)?.focus());
  };

  return (
    <div class="approval">
      <Show
        when={!rerun()}
        fallback={
          <>
            <p class="approval__ask">{t('tool.rerunAsk')}</p>
            <div class="approval__actions">
              <button type="button" class="approval__primary" disabled={busy()} onClick={() => void send({ approved: true })}>
                {t('tool.runAgain')}
              </button>
              <button type="button" disabled={busy()} onClick={() => void send({ approved: false })}>
                {t('tool.skip')}
              </button>
            </div>
          </>
        }
      >
        <p class="approval__ask">{t('tool.ask')}</p>
        <Show when={editing()}>
          <label class="approval__label" for={fieldId}>
            {t('tool.argumentsField')}
          </label>
          <textarea
            id={fieldId}
            class="approval__arguments"
            spellcheck={false}
            rows={Math.min(16, Math.max(4, argumentsText().split('\n').length + 1))}
            value={argumentsText()}
            aria-describedby={`${fieldId}-help`}
            onInput={(event) => setArgumentsText(event.currentTarget.value)}
          />
          <p id={`${fieldId}-help`} class="approval__help">
            {t('tool.argumentsHelp')}
          </p>
        </Show>
        <label class="approval__label" for={reasonId}>
          {t('tool.reason')}
        </label>
        <input
          id={reasonId}
          class="approval__reason"
          type="text"
          maxLength={2000}
          value={reason()}
          aria-describedby={`${reasonId}-help`}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
        <p id={`${reasonId}-help`} class="approval__help">
          {t('tool.reasonHelp')}
        </p>
        <div class="approval__actions">
          <button type="button" class="approval__primary" disabled={busy()} onClick={allow}>
            {t('tool.allow')}
          </button>
          <button type="button" disabled={busy()} onClick={() => void send({ approved: false, ...(reason().trim() ? { reason: reason().trim() } : {}) })}>
            {t('tool.deny')}
          </button>
          <Show when={!editing()} fallback={<button type="button" disabled={busy()} onClick={() => setEditing(false)}>{t('tool.cancelEdit')}</button>}>
            <button type="button" disabled={busy()} onClick={startEditing}>
              {t('tool.edit')}
            </button>
          </Show>
        </div>
      </Show>
      <Show when={error()}>
        <p role="alert" class="approval__error">
          {error()}
        </p>
      </Show>
    </div>
  );
}

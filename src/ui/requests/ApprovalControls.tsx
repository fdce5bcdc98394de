import { createMemo, createSignal, Show } from 'solid-js';
import { describeFlatForm, readFormValue } from '../../schema/forms/flat-form';
import { FormFields, type RawValue } from './FormFields';
import type { ToolCallBlock } from '../../schema/messages/blocks';
import type { WorkerClient } from '../state/channel';
import { t } from '../i18n/i18n';
import { RequestError } from './RequestError';
import { ProposalNote } from './ProposalNote';
import type { RequestTarget } from '../../schema/protocol';
import { createResolver } from './resolve-request';
import { prepareCallWhileShown } from './prepare-call';

/**
 * What the user decides for a tool call: Allow, Deny (with an optional reason the model reads), or Edit arguments first
 * (JSON, checked by the worker against the tool's schema before anything runs). For a call cut off by a crash: Run
 * again or Skip. Nothing here changes the store: the resolved block comes back as a worker event.
 */
export function ApprovalControls(props: { block: ToolCallBlock; rerun: boolean; target: RequestTarget; client: Pick<WorkerClient, 'send'> }) {
  const [editing, setEditing] = createSignal(false);
  // A simple schema can also be edited as a form; JSON is always there (the README's "Arguments" textbox).
  const fields = createMemo(() => describeFlatForm(props.block.source?.inputSchema));
  const [asForm, setAsForm] = createSignal(false);
  const [formValues, setFormValues] = createSignal<Record<string, RawValue>>({});
  const [argumentsText, setArgumentsText] = createSignal('');
  const [reason, setReason] = createSignal('');
  const { busy, error, setError, send, proposedTo } = createResolver(props.client, () => props.target);
  // The call may come at any moment: its server is readied meanwhile, so the Allow's request does not wait for that.
  prepareCallWhileShown(props.client, () => props.target, () => props.block);
  const rerun = () => props.rerun;
  const fieldId = `arguments-${props.target.requestId}`;
  const reasonId = `reason-${props.target.requestId}`;


  const allow = () => {
    if (!editing()) return void send({ approved: true });
    const shown = fields();
    if (asForm() && shown) {
      const params: Record<string, unknown> = {};
      for (const field of shown) {
        const value = readFormValue(field, formValues()[field.name] ?? '');
        if (value !== undefined) params[field.name] = value;
      }
      return void send({ approved: true, params });
    }
    let params: unknown;
    try {
      params = JSON.parse(argumentsText());
    } catch (parseError) {
      setError({ text: t('tool.argumentsInvalid', { detail: parseError instanceof Error ? parseError.message : String(parseError) }) });
      return;
    }
    void send({ approved: true, params });
  };

  const startEditing = () => {
    setArgumentsText(JSON.stringify(props.block.args ?? {}, null, 2));
    setFormValues(rawValuesOf(props.block.args));
    setAsForm(false);
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
        <Show when={editing() && asForm() && fields()}>
          {(shown) => (
            <div class="approval__form">
              <FormFields fields={shown()} values={formValues()} idPrefix={fieldId} onChange={(name, value) => setFormValues((current) => ({ ...current, [name]: value }))} />
              <button type="button" class="approval__switch" onClick={() => setAsForm(false)}>
                {t('tool.editAsJson')}
              </button>
            </div>
          )}
        </Show>
        <Show when={editing() && !asForm()}>
          <Show when={fields()}>
            <button type="button" class="approval__switch" onClick={() => setAsForm(true)}>
              {t('tool.editAsForm')}
            </button>
          </Show>
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
      <RequestError error={error()} />
      <ProposalNote device={proposedTo()} />
    </div>
  );
}

/** The model's arguments as the form's raw values (what a user would have typed). */
function rawValuesOf(args: unknown): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return values;
  for (const [name, value] of Object.entries(args)) {
    if (name === '__proto__' || name === 'constructor' || name === 'prototype') continue;
    if (typeof value === 'boolean') values[name] = value;
    else if (Array.isArray(value)) values[name] = value.map(String);
    else if (value !== undefined && value !== null) values[name] = String(value);
  }
  return values;
}

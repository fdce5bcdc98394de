import { createMemo, createSignal, Show } from 'solid-js';
import { describeFlatForm, readFormValue } from '../../schema/forms/flat-form';
import type { ElicitationRequest } from '../../schema/messages/blocks';
import type { WorkerClient } from '../state/channel';
import { t } from '../i18n/i18n';
import { RequestError } from './RequestError';
import { ProposalNote } from './ProposalNote';
import { decidedElsewhere, deviceName } from '../sync/device-name';
import { FormFields, initialValues, type RawValue } from './FormFields';
import { createResolver } from './resolve-request';
import { checkFormField, type FieldProblem } from '../../schema/forms/flat-form-check';

/**
 * An MCP server's question while its tool runs: a group named by the server's message, with a form generated from the
 * schema it asked for (a JSON textbox where the schema is not flat), and the three MCP answers: Submit (accept; the
 * worker checks the content against the schema first), Decline, Cancel. Once resolved, a one-line record.
 */
export function ElicitationForm(props: { block: ElicitationRequest; conversationId: string; messageId: string; client: Pick<WorkerClient, 'send'>; thisDevice?: string | undefined }) {
  const fields = createMemo(() => describeFlatForm(props.block.payload.requestedSchema));
  const [values, setValues] = createSignal<Record<string, RawValue>>(initialValues(fields() ?? []));
  const [jsonText, setJsonText] = createSignal('{}');
  const [problems, setProblems] = createSignal<Record<string, FieldProblem>>({});
  const target = () => ({ conversationId: props.conversationId, messageId: props.messageId, requestId: props.block.requestId });
  const idPrefix = `elicit-${props.block.requestId}`;
  const { busy, error, setError, send, proposedTo } = createResolver(props.client, target);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const shown = fields();
    if (!shown) {
      try {
        return void send({ approved: true, params: JSON.parse(jsonText()) });
      } catch (parseError) {
        return setError({ text: t('tool.argumentsInvalid', { detail: parseError instanceof Error ? parseError.message : String(parseError) }) });
      }
    }
    // Each problem is said beside its field and the first one gets the focus; nothing reaches the server meanwhile.
    const found: Record<string, FieldProblem> = {};
    for (const field of shown) {
      const problem = checkFormField(field, values()[field.name] ?? '');
      if (problem) found[field.name] = problem;
    }
    setProblems(found);
    const firstInvalid = shown.find((field) => found[field.name]);
    if (firstInvalid) return focusField(`${idPrefix}-${firstInvalid.name}`);
    const content: Record<string, unknown> = {};
    for (const field of shown) {
      const value = readFormValue(field, values()[field.name] ?? '');
      if (value !== undefined) content[field.name] = value;
    }
    void send({ approved: true, params: content });
  };

  return (
    <Show
      when={props.block.status === 'pending'}
      fallback={
        <p class="elicitation-summary" data-resolution={props.block.resolution}>
          {outcomeText(props.block)}
          <Show when={decidedElsewhere(props.block.resolvedOn, props.thisDevice) ? props.block.resolvedOn : undefined}>
            {(device) => <span class="decided-on"> · {t('sync.decidedOn', { device: deviceName(device()) })}</span>}
          </Show>
        </p>
      }
    >
      <form class="elicitation" role="group" aria-label={props.block.payload.message} onSubmit={submit} noValidate>
        <p class="elicitation__from">{t('elicitation.from', { server: props.block.payload.serverName })}</p>
        <p class="elicitation__message">{props.block.payload.message}</p>
        <Show
          when={fields()}
          fallback={
            <>
              <label class="approval__label" for={`${idPrefix}-json`}>
                {t('tool.argumentsField')}
              </label>
              <textarea id={`${idPrefix}-json`} class="approval__arguments" rows={6} value={jsonText()} onInput={(event) => setJsonText(event.currentTarget.value)} />
            </>
          }
        >
          {(shown) => (
            <FormFields
              fields={shown()}
              values={values()}
              idPrefix={idPrefix}
              problems={problems()}
              onChange={(name, value) => {
                setValues((current) => ({ ...current, [name]: value }));
                // A changed field is checked again at the next Submit; its old message would now be wrong.
                setProblems(({ [name]: _changed, ...rest }) => rest);
              }}
            />
          )}
        </Show>
        <RequestError error={error()} />
        <ProposalNote device={proposedTo()} />
        <div class="approval__actions">
          <button type="submit" class="approval__primary" disabled={busy()}>
            {t('elicitation.submit')}
          </button>
          <button type="button" disabled={busy()} onClick={() => void send({ approved: false })}>
            {t('elicitation.decline')}
          </button>
          <button type="button" disabled={busy()} onClick={() => void send({ approved: false, cancel: true })}>
            {t('elicitation.cancel')}
          </button>
        </div>
      </form>
    </Show>
  );
}

/** Focuses a field by its id: the input itself, or a group's first choice. */
function focusField(id: string): void {
  const element = document.getElementById(id);
  const target = element instanceof HTMLFieldSetElement ? element.querySelector<HTMLInputElement>('input') : element;
  target?.focus();
}

function outcomeText(block: ElicitationRequest): string {
  switch (block.resolution) {
    case 'accepted':
      return t('elicitation.accepted', { server: block.payload.serverName });
    case 'declined':
      return t('elicitation.declined');
    case 'cancelled':
      return t('elicitation.cancelled');
    case 'interrupted':
      return t('elicitation.interrupted', { server: block.payload.serverName });
    case 'stopped':
    case undefined:
      return t('elicitation.stopped');
  }
}

import { For, Show } from 'solid-js';
import type { ErrorWords } from '../common/error-words';
import { t } from '../i18n/i18n';
import { ErrorDetail } from '../common/ErrorDetail';

/**
 * Where a remote profile's model is: base URL, API key and model, with "Test connection", whose list of the server's
 * models fills the model field. The values live in ProfileForm, which saves and tests them.
 */
export function ProfileConnectionFields(props: {
  idPrefix: string;
  baseUrl: string;
  baseUrlHint: string;
  onBaseUrlChange: (baseUrl: string) => void;
  /** The key typed here; empty keeps the stored one, shown masked as the placeholder. */
  apiKey: string;
  keyPlaceholder: string;
  onApiKeyChange: (apiKey: string) => void;
  model: string;
  onModelChange: (model: string) => void;
  /** The models the last test listed. */
  models: readonly string[];
  testResult: ErrorWords;
  onTest: () => void;
}) {
  return (
    <>
      <div class="field">
        <label for={`${props.idPrefix}-base-url`}>{t('settings.baseUrl')}</label>
        <input
          id={`${props.idPrefix}-base-url`}
          class="input"
          type="url"
          value={props.baseUrl}
          placeholder={props.baseUrlHint}
          onInput={(event) => props.onBaseUrlChange(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${props.idPrefix}-api-key`}>{t('settings.apiKey')}</label>
        <input
          id={`${props.idPrefix}-api-key`}
          class="input"
          type="password"
          autocomplete="off"
          value={props.apiKey}
          placeholder={props.keyPlaceholder}
          onInput={(event) => props.onApiKeyChange(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${props.idPrefix}-model`}>{t('settings.model')}</label>
        <input id={`${props.idPrefix}-model`} class="input" list={`${props.idPrefix}-models`} value={props.model} onInput={(event) => props.onModelChange(event.currentTarget.value)} />
        <datalist id={`${props.idPrefix}-models`}>
          <For each={props.models}>{(modelName) => <option value={modelName} />}</For>
        </datalist>
      </div>
      <Show when={props.models.length > 0}>
        <div class="field">
          <label for={`${props.idPrefix}-model-list`}>{t('settings.modelList')}</label>
          <select id={`${props.idPrefix}-model-list`} class="select" onChange={(event) => props.onModelChange(event.currentTarget.value)}>
            <For each={props.models}>
              {(modelName) => (
                <option value={modelName} selected={modelName === props.model}>
                  {modelName}
                </option>
              )}
            </For>
          </select>
        </div>
      </Show>
      <div class="form-row">
        <button type="button" class="button" onClick={() => props.onTest()}>
          {t('settings.test')}
        </button>
        <div class="test-result" role="status">
          {props.testResult.text}
          <ErrorDetail detail={props.testResult.detail} />
        </div>
      </div>
    </>
  );
}

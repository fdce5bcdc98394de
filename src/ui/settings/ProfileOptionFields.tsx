import { Show } from 'solid-js';
import { t } from '../i18n/i18n';

/**
 * A profile's optional settings: instructions, sampling (each empty for the provider's default), and images. The Built-in
 * demo has instructions only: its replies are its script's, which no temperature or token limit changes.
 */
export function ProfileOptionFields(props: {
  idPrefix: string;
  instructions: string;
  onInstructionsChange: (instructions: string) => void;
  /** What the instructions do, when not what they do for a real model (the Built-in demo's). */
  instructionsHint?: string;
  /** Whether Temperature and Max output tokens are asked (not for the Built-in demo). */
  sampling?: boolean;
  temperature: string;
  onTemperatureChange: (temperature: string) => void;
  maxOutputTokens: string;
  onMaxOutputTokensChange: (maxOutputTokens: string) => void;
  /** Whether "Accepts images" is asked (remote providers only). */
  imagesOption: boolean;
  acceptsImages: boolean;
  onAcceptsImagesChange: (acceptsImages: boolean) => void;
}) {
  return (
    <>
      <div class="field">
        <label for={`${props.idPrefix}-instructions`}>{t('settings.instructions')}</label>
        <textarea
          id={`${props.idPrefix}-instructions`}
          class="input"
          rows={4}
          maxLength={20_000}
          aria-describedby={`${props.idPrefix}-instructions-hint`}
          value={props.instructions}
          onInput={(event) => props.onInstructionsChange(event.currentTarget.value)}
        />
        <small class="field-hint" id={`${props.idPrefix}-instructions-hint`}>
          {props.instructionsHint ?? t('settings.instructionsHint')}
        </small>
      </div>
      <Show when={props.sampling ?? true}>
        <div class="form-row sampling-row">
          <NumberField id={`${props.idPrefix}-temperature`} label={t('settings.temperature')} min="0" max="2" step="0.1" value={props.temperature} onChange={props.onTemperatureChange} />
          <NumberField id={`${props.idPrefix}-max-tokens`} label={t('settings.maxOutputTokens')} min="1" max="1000000" step="1" value={props.maxOutputTokens} onChange={props.onMaxOutputTokensChange} />
        </div>
      </Show>
      <Show when={props.imagesOption}>
        <label class="checkbox-field">
          <input type="checkbox" checked={props.acceptsImages} aria-describedby={`${props.idPrefix}-images-hint`} onChange={(event) => props.onAcceptsImagesChange(event.currentTarget.checked)} />
          {t('settings.acceptsImages')}
        </label>
        <small class="field-hint" id={`${props.idPrefix}-images-hint`}>
          {t('settings.acceptsImagesHint')}
        </small>
      </Show>
    </>
  );
}

/** A sampling number: empty means the provider's default, which its placeholder says. */
function NumberField(props: { id: string; label: string; min: string; max: string; step: string; value: string; onChange: (value: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        class="input"
        type="number"
        min={props.min}
        max={props.max}
        step={props.step}
        placeholder={t('settings.providerDefault')}
        value={props.value}
        onInput={(event) => props.onChange(event.currentTarget.value)}
      />
    </div>
  );
}

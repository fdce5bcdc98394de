import { For, Show, createUniqueId } from 'solid-js';
import { QUESTION_LIMITS } from '../../schema/limits';
import type { Question } from '../../schema/forms/question';
import { t } from '../i18n/i18n';
import { isFreeTextOnly } from './state/question-form-state';

/** Digits 1–9 pick options; the n-th row shows its digit only when a digit can reach it. */
const MAX_DIGIT = 9;

/**
 * One question as a fieldset named by its text: real radio inputs (single choice) or checkboxes
 * (multiple), each named by its label and described by its description, plus an optional "Other"
 * choice that reveals a textbox "Other answer". Model text is rendered as text, never as HTML.
 */
export function QuestionFieldset(props: {
  question: Question;
  /** Shared `name` of the radio group; unique per form instance. */
  groupName: string;
  selected: readonly string[];
  otherChosen: boolean;
  otherText: string;
  onPick: (label: string) => void;
  onPickOther: () => void;
  onOtherText: (text: string) => void;
  onClear: () => void;
  otherTextRef: (element: HTMLTextAreaElement) => void;
}) {
  const baseId = createUniqueId();
  const inputType = () => (props.question.multiple ? 'checkbox' : 'radio');
  const hasChoice = () => props.selected.length > 0 || (isFreeTextOnly(props.question) ? props.otherText !== '' : props.otherChosen);
  const otherNumber = () => props.question.options.length + 1;

  return (
    <fieldset class="question-field" aria-describedby={props.question.multiple ? `${baseId}-hint` : undefined}>
      <legend class="question-field__legend" dir="auto">
        {props.question.question}
      </legend>
      <Show when={props.question.multiple}>
        <p class="question-field__hint" id={`${baseId}-hint`}>
          {t('question.multipleHint')}
        </p>
      </Show>
      <Show when={isFreeTextOnly(props.question)}>
        <textarea
          ref={props.otherTextRef}
          class="question-field__other-text question-field__free-text"
          aria-label={t('question.freeAnswer')}
          placeholder={t('question.otherPlaceholder')}
          maxLength={QUESTION_LIMITS.otherText}
          rows={3}
          dir="auto"
          value={props.otherText}
          onInput={(event) => props.onOtherText(event.currentTarget.value)}
        />
      </Show>
      <div class="question-field__options" hidden={isFreeTextOnly(props.question)}>
        <For each={props.question.options}>
          {(option, index) => (
            <label class="question-option">
              <input
                class="question-option__input"
                type={inputType()}
                name={props.groupName}
                value={option.label}
                checked={props.selected.includes(option.label)}
                aria-labelledby={`${baseId}-label-${index()}`}
                aria-describedby={option.description ? `${baseId}-description-${index()}` : undefined}
                onChange={() => props.onPick(option.label)}
              />
              <span class="question-option__key" aria-hidden="true">
                {index() < MAX_DIGIT ? String(index() + 1) : ''}
              </span>
              <span class="question-option__body">
                <span class="question-option__label" id={`${baseId}-label-${index()}`} dir="auto">
                  {option.label}
                </span>
                <Show when={option.description}>
                  {(description) => (
                    <span class="question-option__description" id={`${baseId}-description-${index()}`} dir="auto">
                      {description()}
                    </span>
                  )}
                </Show>
              </span>
            </label>
          )}
        </For>
        <Show when={props.question.custom && !isFreeTextOnly(props.question)}>
          <label class="question-option question-option--other">
            <input
              class="question-option__input"
              type={inputType()}
              name={props.groupName}
              value=""
              checked={props.otherChosen}
              aria-labelledby={`${baseId}-other`}
              onChange={() => props.onPickOther()}
            />
            <span class="question-option__key" aria-hidden="true">
              {otherNumber() <= MAX_DIGIT ? String(otherNumber()) : ''}
            </span>
            <span class="question-option__body">
              <span class="question-option__label" id={`${baseId}-other`}>
                {t('question.other')}
              </span>
            </span>
          </label>
          <Show when={props.otherChosen}>
            <textarea
              ref={props.otherTextRef}
              class="question-field__other-text"
              aria-label={t('question.otherAnswer')}
              placeholder={t('question.otherPlaceholder')}
              maxLength={QUESTION_LIMITS.otherText}
              rows={2}
              dir="auto"
              value={props.otherText}
              onInput={(event) => props.onOtherText(event.currentTarget.value)}
            />
          </Show>
        </Show>
      </div>
      <Show when={hasChoice()}>
        <button type="button" class="question-field__clear" onClick={() => props.onClear()}>
          {t('question.clearAnswer')}
        </button>
      </Show>
    </fieldset>
  );
}

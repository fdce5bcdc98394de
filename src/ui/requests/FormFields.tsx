import { For, Match, Show, Switch } from 'solid-js';
import type { FormField } from '../../schema/forms/flat-form';
import type { FieldProblem, FieldProblemCode } from '../../schema/forms/flat-form-check';
import { t, type MessageKey } from '../i18n/i18n';

/** The raw state of one field as its input holds it. */
export type RawValue = string | boolean | string[];

/** The starting raw values: each field's default, else empty. */
export function initialValues(fields: readonly FormField[]): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  for (const field of fields) {
    if (field.kind === 'boolean') values[field.name] = field.default === true;
    else if (field.kind === 'multi-enum') values[field.name] = Array.isArray(field.default) ? [...field.default] : [];
    else values[field.name] = field.default === undefined ? '' : String(field.default);
  }
  return values;
}

/**
 * A flat form generated from a JSON schema (see describeFlatForm): each field a real, labelled control — text, email,
 * URL and date inputs, number inputs, a checkbox, radios for a single choice, checkboxes for several. Labels are the
 * schema's titles, else the property names.
 */
export function FormFields(props: {
  fields: readonly FormField[];
  values: Record<string, RawValue>;
  idPrefix: string;
  onChange: (name: string, value: RawValue) => void;
  /** What is wrong with each field, by name: said beside the field, which is marked invalid. */
  problems?: Readonly<Record<string, FieldProblem>>;
}) {
  return (
    <For each={props.fields}>
      {(field) => {
        const id = `${props.idPrefix}-${field.name}`;
        const titleId = `${id}-title`;
        const errorId = `${id}-error`;
        const problem = () => props.problems?.[field.name];
        const describedBy = () => [problem() ? errorId : '', field.description ? `${id}-description` : ''].filter(Boolean).join(' ') || undefined;
        // The accessible name is the title alone (aria-labelledby skips the "*"); "required" is aria-required's to say.
        const label = () => (
          <>
            <span id={titleId}>{field.title}</span>
            {field.required ? <span class="form-field__required" aria-hidden="true"> *</span> : null}
          </>
        );
        const description = field.description ? <p id={`${id}-description`} class="form-field__description">{field.description}</p> : undefined;
        const error = () => (
          <Show when={problem()}>
            {(shown) => (
              <p id={errorId} class="form-field__error">
                {problemText(shown())}
              </p>
            )}
          </Show>
        );
        return (
          <div class="form-field" data-kind={field.kind} data-invalid={problem() ? 'true' : undefined}>
            <Switch>
              <Match when={field.kind === 'boolean'}>
                <label class="form-field__check">
                  <input type="checkbox" aria-describedby={describedBy()} checked={props.values[field.name] === true} onChange={(event) => props.onChange(field.name, event.currentTarget.checked)} />
                  <span>{field.title}</span>
                </label>
                {description}
                {error()}
              </Match>
              <Match when={field.kind === 'enum' || field.kind === 'multi-enum'}>
                <fieldset
                  id={id}
                  class="form-field__choices"
                  aria-labelledby={titleId}
                  aria-describedby={describedBy()}
                  aria-required={field.required ? 'true' : undefined}
                  aria-invalid={problem() ? 'true' : undefined}
                >
                  <legend>{label()}</legend>
                  {description}
                  {error()}
                  <For each={field.options ?? []}>
                    {(option) => {
                      const multiple = field.kind === 'multi-enum';
                      const chosen = () => {
                        const value = props.values[field.name];
                        return multiple ? Array.isArray(value) && value.includes(option.value) : value === option.value;
                      };
                      return (
                        <label class="form-field__check">
                          <input
                            type={multiple ? 'checkbox' : 'radio'}
                            name={id}
                            value={option.value}
                            checked={chosen()}
                            onChange={(event) => {
                              if (!multiple) return props.onChange(field.name, option.value);
                              const current = props.values[field.name];
                              const list = Array.isArray(current) ? current.filter((value) => value !== option.value) : [];
                              props.onChange(field.name, event.currentTarget.checked ? [...list, option.value] : list);
                            }}
                          />
                          <span>{option.label}</span>
                        </label>
                      );
                    }}
                  </For>
                </fieldset>
              </Match>
              <Match when={true}>
                <label class="form-field__label" for={id}>
                  {label()}
                </label>
                <input
                  id={id}
                  class="form-field__input"
                  type={inputType(field)}
                  inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : undefined}
                  aria-labelledby={titleId}
                  aria-required={field.required ? 'true' : undefined}
                  aria-invalid={problem() ? 'true' : undefined}
                  aria-describedby={describedBy()}
                  {...(field.minimum !== undefined ? { min: String(field.minimum) } : {})}
                  {...(field.maximum !== undefined ? { max: String(field.maximum) } : {})}
                  {...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {})}
                  step={field.kind === 'integer' ? '1' : field.kind === 'number' ? 'any' : undefined}
                  value={String(props.values[field.name] ?? '')}
                  onInput={(event) => props.onChange(field.name, event.currentTarget.value)}
                />
                {error()}
                {description}
              </Match>
            </Switch>
          </div>
        );
      }}
    </For>
  );
}

const PROBLEM_KEYS: Record<FieldProblemCode, MessageKey> = {
  required: 'form.error.required',
  number: 'form.error.number',
  integer: 'form.error.integer',
  minimum: 'form.error.minimum',
  maximum: 'form.error.maximum',
  email: 'form.error.email',
  uri: 'form.error.uri',
  date: 'form.error.date',
  minLength: 'form.error.minLength',
  maxLength: 'form.error.maxLength',
  minItems: 'form.error.minItems',
  maxItems: 'form.error.maxItems',
};

/** A field's problem in the UI's language. */
function problemText(problem: FieldProblem): string {
  return t(PROBLEM_KEYS[problem.code], { limit: String(problem.limit ?? '') });
}

function inputType(field: FormField): string {
  if (field.kind === 'number' || field.kind === 'integer') return 'number';
  switch (field.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    default:
      return 'text';
  }
}

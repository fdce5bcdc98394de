import { For, Match, Switch } from 'solid-js';
import type { FormField } from '../../../schema/flat-form';
import { t } from '../../i18n/i18n';

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
export function FormFields(props: { fields: readonly FormField[]; values: Record<string, RawValue>; idPrefix: string; onChange: (name: string, value: RawValue) => void }) {
  return (
    <For each={props.fields}>
      {(field) => {
        const id = `${props.idPrefix}-${field.name}`;
        const describedBy = field.description ? `${id}-description` : undefined;
        // The accessible name is the title alone (as the README promises); "required" is said by the control itself.
        const label = () => (
          <>
            {field.title}
            {field.required ? <span class="form-field__required" aria-hidden="true" title={t('elicitation.required')}> *</span> : null}
          </>
        );
        const description = field.description ? <p id={`${id}-description`} class="form-field__description">{field.description}</p> : undefined;
        return (
          <div class="form-field" data-kind={field.kind}>
            <Switch>
              <Match when={field.kind === 'boolean'}>
                <label class="form-field__check">
                  <input type="checkbox" aria-describedby={describedBy} checked={props.values[field.name] === true} onChange={(event) => props.onChange(field.name, event.currentTarget.checked)} />
                  <span>{field.title}</span>
                </label>
                {description}
              </Match>
              <Match when={field.kind === 'enum' || field.kind === 'multi-enum'}>
                <fieldset class="form-field__choices" aria-describedby={describedBy} aria-required={field.required ? 'true' : undefined}>
                  <legend>{label()}</legend>
                  {description}
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
                  required={field.required}
                  aria-describedby={describedBy}
                  {...(field.minimum !== undefined ? { min: String(field.minimum) } : {})}
                  {...(field.maximum !== undefined ? { max: String(field.maximum) } : {})}
                  {...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {})}
                  step={field.kind === 'integer' ? '1' : field.kind === 'number' ? 'any' : undefined}
                  value={String(props.values[field.name] ?? '')}
                  onInput={(event) => props.onChange(field.name, event.currentTarget.value)}
                />
                {description}
              </Match>
            </Switch>
          </div>
        );
      }}
    </For>
  );
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

/**
 * Flat forms from JSON Schema, for the UI and the worker alike (no zod, no SDK): which schemas render as a simple form
 * (tool arguments to edit, an MCP elicitation), the fields they have, and an input's raw value read back as JSON.
 */

/** Whether a value is a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a tool's input schema can describe arguments at all: an object schema (MCP requires `type: "object"`). */
export function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return isPlainObject(schema) && schema.type === 'object' && (schema.properties === undefined || isPlainObject(schema.properties));
}


/** How a form renders one field of a flat object schema. */
export type FormFieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi-enum';

export interface FormOption {
  value: string;
  label: string;
}

/** One field of a flat form: what the approval editor and the elicitation form both render. */
export interface FormField {
  /** The property name (the key in the value). */
  name: string;
  /** The label: the schema's title, else the property name. */
  title: string;
  description?: string;
  kind: FormFieldKind;
  required: boolean;
  default?: string | number | boolean | string[];
  /** For enum and multi-enum. */
  options?: FormOption[];
  /** For strings: email, uri, date, date-time. */
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/**
 * The fields of a "simple" schema: a flat object whose properties are strings, numbers, integers, booleans, single enums
 * (`enum`, or `oneOf` of `{const, title}`) or multi-select enums (an array of those). Undefined for anything else (nested
 * objects, free arrays, unions): then the UI falls back to a JSON textbox.
 */
export function describeFlatForm(schema: unknown): FormField[] | undefined {
  if (!isObjectSchema(schema)) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []);
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isPlainObject(property)) return undefined;
    const field = describeField(name, property, required.has(name));
    if (!field) return undefined;
    fields.push(field);
  }
  return fields;
}

/** Whether a schema renders as a flat form (see `describeFlatForm`). */
export function isSimpleSchema(schema: unknown): boolean {
  return describeFlatForm(schema) !== undefined;
}

function describeField(name: string, property: Record<string, unknown>, required: boolean): FormField | undefined {
  const base: FormField = { name, title: typeof property.title === 'string' && property.title ? property.title : name, kind: 'string', required };
  if (typeof property.description === 'string') base.description = property.description;
  const options = optionsOf(property);
  if (options && (property.type === 'string' || property.type === undefined)) {
    const field: FormField = { ...base, kind: 'enum', options };
    if (typeof property.default === 'string') field.default = property.default;
    return field;
  }
  switch (property.type) {
    case 'string': {
      const field: FormField = { ...base, kind: 'string' };
      if (typeof property.format === 'string') field.format = property.format;
      if (typeof property.minLength === 'number') field.minLength = property.minLength;
      if (typeof property.maxLength === 'number') field.maxLength = property.maxLength;
      if (typeof property.default === 'string') field.default = property.default;
      return field;
    }
    case 'number':
    case 'integer': {
      const field: FormField = { ...base, kind: property.type };
      if (typeof property.minimum === 'number') field.minimum = property.minimum;
      if (typeof property.maximum === 'number') field.maximum = property.maximum;
      if (typeof property.default === 'number') field.default = property.default;
      return field;
    }
    case 'boolean': {
      const field: FormField = { ...base, kind: 'boolean' };
      if (typeof property.default === 'boolean') field.default = property.default;
      return field;
    }
    case 'array': {
      const itemOptions = isPlainObject(property.items) ? optionsOf(property.items) : undefined;
      if (!itemOptions) return undefined;
      const field: FormField = { ...base, kind: 'multi-enum', options: itemOptions };
      if (typeof property.minItems === 'number') field.minItems = property.minItems;
      if (typeof property.maxItems === 'number') field.maxItems = property.maxItems;
      if (Array.isArray(property.default) && property.default.every((entry) => typeof entry === 'string')) field.default = property.default as string[];
      return field;
    }
    default:
      return undefined;
  }
}

/** The choices of an enum: `enum` (labelled by the legacy `enumNames` if given) or `oneOf`/`anyOf` of `{const, title}`. */
function optionsOf(schema: Record<string, unknown>): FormOption[] | undefined {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return (schema.enum as string[]).map((value, index) => ({ value, label: typeof names[index] === 'string' ? names[index] : value }));
  }
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!variants || variants.length === 0) return undefined;
  const options: FormOption[] = [];
  for (const variant of variants) {
    if (!isPlainObject(variant) || typeof variant.const !== 'string') return undefined;
    options.push({ value: variant.const, label: typeof variant.title === 'string' ? variant.title : variant.const });
  }
  return options;
}

/**
 * A form input's raw value as the field's JSON value: text for strings, a number for number fields (undefined when
 * empty, so a missing optional field is left out), the checked state for booleans, the chosen values for multi-enums.
 */
export function readFormValue(field: FormField, raw: string | boolean | readonly string[]): unknown {
  switch (field.kind) {
    case 'boolean':
      return raw === true || raw === 'true';
    case 'multi-enum':
      return Array.isArray(raw) ? [...raw] : [];
    case 'number':
    case 'integer': {
      const text = String(raw).trim();
      if (text === '') return undefined;
      const number = Number(text);
      return Number.isFinite(number) ? number : text;
    }
    default: {
      const text = String(raw);
      return text === '' && !field.required ? undefined : text;
    }
  }
}

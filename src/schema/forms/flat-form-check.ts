/**
 * One field of a flat form checked as the user filled it in, before anything is sent: what is wrong, as a code and a
 * limit for the UI to word beside the field. The worker checks the whole content against the schema again.
 */
import type { FormField } from './flat-form';

/** What is wrong with one field's value. */
export type FieldProblemCode = 'required' | 'number' | 'integer' | 'minimum' | 'maximum' | 'email' | 'uri' | 'date' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems';

export interface FieldProblem {
  code: FieldProblemCode;
  /** The bound that was crossed, for minimum, maximum and the length and item counts. */
  limit?: number;
}

/** The string formats both the form and the worker check (JSON Schema's `format`); others are not checked. */
export const STRING_FORMATS: Record<string, (value: string) => boolean> = {
  email: (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
  uri: (value) => /^[a-z][a-z0-9+.-]*:/i.test(value) && parsesAsUrl(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) && isRealDate(value.slice(0, 10)),
};

/** Formats the form checks itself: a date-time input's value has no zone, so the worker alone words that one. */
const FORM_FORMATS = new Set<FieldProblemCode>(['email', 'uri', 'date']);

/**
 * The first problem of a field's raw value, or undefined when it may be sent. An empty (or blank) required text is
 * missing, not an answer: a server asking for a name must not get `""`.
 */
export function checkFormField(field: FormField, raw: string | boolean | readonly string[]): FieldProblem | undefined {
  switch (field.kind) {
    case 'boolean':
      return undefined;
    case 'multi-enum': {
      const chosen = Array.isArray(raw) ? raw.length : 0;
      if (field.required && chosen === 0) return { code: 'required' };
      if (field.minItems !== undefined && chosen < field.minItems) return { code: 'minItems', limit: field.minItems };
      if (field.maxItems !== undefined && chosen > field.maxItems) return { code: 'maxItems', limit: field.maxItems };
      return undefined;
    }
    case 'number':
    case 'integer': {
      const text = String(raw).trim();
      if (text === '') return field.required ? { code: 'required' } : undefined;
      const number = Number(text);
      if (!Number.isFinite(number)) return { code: 'number' };
      if (field.kind === 'integer' && !Number.isInteger(number)) return { code: 'integer' };
      if (field.minimum !== undefined && number < field.minimum) return { code: 'minimum', limit: field.minimum };
      if (field.maximum !== undefined && number > field.maximum) return { code: 'maximum', limit: field.maximum };
      return undefined;
    }
    default: {
      const text = String(raw);
      if (text.trim() === '') return field.required ? { code: 'required' } : undefined;
      const length = [...text].length;
      if (field.minLength !== undefined && length < field.minLength) return { code: 'minLength', limit: field.minLength };
      if (field.maxLength !== undefined && length > field.maxLength) return { code: 'maxLength', limit: field.maxLength };
      const format = field.format as FieldProblemCode | undefined;
      if (format && FORM_FORMATS.has(format) && !STRING_FORMATS[format]!(text)) return { code: format };
      return undefined;
    }
  }
}

function parsesAsUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isRealDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}

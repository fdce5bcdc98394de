import { describe, expect, it } from 'vitest';
import { checkArguments, checkElicitationContent, describeFlatForm, isSimpleSchema, readFormValue } from '../../src/core/requests/json-schema-form';

const trip = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    nights: { type: 'integer', minimum: 1, maximum: 30 },
    email: { type: 'string', format: 'email' },
    stops: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    kind: { enum: ['train', 'plane'] },
  },
  required: ['city', 'nights'],
  additionalProperties: false,
};

describe('checkArguments', () => {
  it('accepts what satisfies the schema, and absent arguments for a schema without required fields', () => {
    expect(checkArguments(trip, { city: 'Lyon', nights: 2, stops: [{ name: 'Dijon' }], kind: 'train' })).toEqual({ ok: true, value: { city: 'Lyon', nights: 2, stops: [{ name: 'Dijon' }], kind: 'train' } });
    expect(checkArguments({ type: 'object', properties: {} }, undefined)).toEqual({ ok: true, value: {} });
  });

  it('names each failing field and tells the model to rewrite the input', () => {
    const result = checkArguments(trip, { city: '', nights: 2.5, extra: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe(
      'Invalid arguments: field `city` must not be empty; field `nights` must be an integer, not a number; field `extra` is not an expected field. Please rewrite the input so it satisfies the expected schema.',
    );
  });

  it('finds missing required fields, nested paths, enums, formats and bounds', () => {
    const error = (value: unknown) => {
      const result = checkArguments(trip, value);
      return result.ok ? '' : result.error;
    };
    expect(error({ nights: 1 })).toContain('field `city` is required but missing');
    expect(error({ city: 'a', nights: 1, stops: [{}] })).toContain('field `stops[0].name` is required but missing');
    expect(error({ city: 'a', nights: 1, kind: 'boat' })).toContain('field `kind` must be one of "train", "plane"');
    expect(error({ city: 'a', nights: 1, email: 'nope' })).toContain('field `email` must be a valid email');
    expect(error({ city: 'a', nights: 31 })).toContain('field `nights` must be at most 30');
    expect(error('Lyon')).toContain('must be an object, not a string');
  });

  it('handles anyOf, oneOf, const, $ref and patterns without evaluating code', () => {
    const schema = {
      type: 'object',
      $defs: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
      properties: { from: { $ref: '#/$defs/code' }, limit: { anyOf: [{ type: 'integer' }, { const: 'all' }] }, mode: { oneOf: [{ const: 'a' }, { const: 'b' }] } },
    };
    expect(checkArguments(schema, { from: 'LYS', limit: 'all', mode: 'a' }).ok).toBe(true);
    const bad = checkArguments(schema, { from: 'lys', limit: 'some', mode: 'c' });
    expect(bad.ok ? '' : bad.error).toContain('field `from` must match the pattern ^[A-Z]{3}$');
    expect(bad.ok ? '' : bad.error).toContain('field `limit` does not match any of the allowed shapes');
    expect(bad.ok ? '' : bad.error).toContain('field `mode` does not match any of the allowed shapes');
    // A pattern the browser cannot compile is ignored rather than failing every call.
    expect(checkArguments({ type: 'object', properties: { x: { type: 'string', pattern: '(' } } }, { x: 'y' }).ok).toBe(true);
  });

  it('checks dates and date-times for real calendar days', () => {
    const schema = { type: 'object', properties: { day: { type: 'string', format: 'date' }, at: { type: 'string', format: 'date-time' }, link: { type: 'string', format: 'uri' } } };
    expect(checkArguments(schema, { day: '2026-02-28', at: '2026-02-28T10:00:00Z', link: 'https://example.com/a' }).ok).toBe(true);
    expect(checkArguments(schema, { day: '2026-02-30' }).ok).toBe(false);
    expect(checkArguments(schema, { at: '2026-02-28 10:00' }).ok).toBe(false);
    expect(checkArguments(schema, { link: 'not a link' }).ok).toBe(false);
  });
});

const elicitation = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 1 },
    age: { type: 'integer', title: 'Age', minimum: 0 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: false },
    color: { type: 'string', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] },
    size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'], default: 'm' },
    toppings: { type: 'array', title: 'Toppings', items: { type: 'string', enum: ['cheese', 'ham'] }, minItems: 1 },
    when: { type: 'string', format: 'date', description: 'Day of the visit' },
  },
  required: ['name'],
};

describe('checkElicitationContent', () => {
  it('accepts a valid answer and names a failing field by its title', () => {
    expect(checkElicitationContent(elicitation, { name: 'Ada', toppings: ['ham'] }).ok).toBe(true);
    const missing = checkElicitationContent(elicitation, { age: -1 });
    expect(missing).toEqual({ ok: false, error: 'field `Your name` is required but missing; field `Age` must be at least 0.' });
  });

  it('refuses nested values, which elicitation forms cannot hold', () => {
    expect(checkElicitationContent(elicitation, { name: 'Ada', extra: { nested: true } })).toEqual({ ok: false, error: 'The field "extra" must be text, a number, a yes/no choice or a list of options.' });
  });
});

describe('describeFlatForm', () => {
  it('describes every field kind of a flat schema', () => {
    expect(describeFlatForm(elicitation)).toEqual([
      { name: 'name', title: 'Your name', kind: 'string', required: true, minLength: 1 },
      { name: 'age', title: 'Age', kind: 'integer', required: false, minimum: 0 },
      { name: 'subscribe', title: 'Subscribe', kind: 'boolean', required: false, default: false },
      { name: 'color', title: 'color', kind: 'enum', required: false, options: [{ value: 'red', label: 'Red' }, { value: 'blue', label: 'Blue' }] },
      { name: 'size', title: 'size', kind: 'enum', required: false, default: 'm', options: [{ value: 's', label: 'Small' }, { value: 'm', label: 'Medium' }] },
      { name: 'toppings', title: 'Toppings', kind: 'multi-enum', required: false, minItems: 1, options: [{ value: 'cheese', label: 'cheese' }, { value: 'ham', label: 'ham' }] },
      { name: 'when', title: 'when', description: 'Day of the visit', kind: 'string', required: false, format: 'date' },
    ]);
  });

  it('says a nested or free-form schema is not simple (the UI shows a JSON textbox)', () => {
    expect(isSimpleSchema(elicitation)).toBe(true);
    expect(isSimpleSchema(trip)).toBe(false);
    expect(isSimpleSchema({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } })).toBe(false);
    expect(isSimpleSchema({ type: 'string' })).toBe(false);
  });

  it('reads form inputs as JSON values', () => {
    const [name, age, subscribe, , , toppings] = describeFlatForm(elicitation)!;
    expect(readFormValue(age!, '')).toBeUndefined();
    expect(readFormValue(age!, '42')).toBe(42);
    expect(readFormValue(subscribe!, true)).toBe(true);
    expect(readFormValue(toppings!, ['ham'])).toEqual(['ham']);
    expect(readFormValue(name!, '')).toBe('');
  });
});

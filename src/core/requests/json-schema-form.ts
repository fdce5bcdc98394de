import type { ArgumentsCheck, ElicitationResponse } from '../tools/tool';
import { isObjectSchema, isPlainObject } from '../../schema/forms/flat-form';
import { STRING_FORMATS } from '../../schema/forms/flat-form-check';

export { describeFlatForm, isObjectSchema, isPlainObject, isSimpleSchema, readFormValue, type FormField, type FormFieldKind, type FormOption } from '../../schema/forms/flat-form';

/**
 * JSON Schema checks and flat forms for tool arguments and MCP elicitation. An interpreter of a subset of JSON Schema
 * (no code generation, so it runs under a Content-Security-Policy without 'unsafe-eval'): type, enum, const,
 * properties, required, additionalProperties, items, the numeric and length bounds, pattern, the formats email, uri,
 * date and date-time, allOf/anyOf/oneOf/not and local $ref. Unknown keywords are ignored (as validators do).
 */

type Schema = Record<string, unknown> | boolean;

/** One problem found, with where it is: `city`, `stops[2].name`, or '' for the value itself. */
interface SchemaProblem {
  path: string;
  message: string;
}

const MAX_DEPTH = 64;
const MAX_PROBLEMS = 3;
const REWRITE = 'Please rewrite the input so it satisfies the expected schema.';

/** Every problem of `value` against `schema` (the first few), in document order. */
export function findSchemaProblems(schema: unknown, value: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const root = isPlainObject(schema) || typeof schema === 'boolean' ? schema : true;
  validate(root, value, '', { root, problems, depth: 0 });
  return problems.slice(0, MAX_PROBLEMS);
}

/**
 * Checks a tool call's arguments (the model's, or the user's edit). The error names each field and ends with the sentence
 * the model can act on. Absent arguments count as an empty object (models send nothing for a tool without parameters).
 */
export function checkArguments(schema: Record<string, unknown>, value: unknown): ArgumentsCheck {
  const args = value === undefined || value === null ? {} : value;
  const problems = findSchemaProblems(schema, args);
  if (problems.length === 0) return { ok: true, value: args };
  return { ok: false, error: `Invalid arguments: ${problems.map(describeProblem).join('; ')}. ${REWRITE}` };
}

/**
 * Checks what the user accepted in an elicitation form against the server's requested schema: a flat object of
 * primitives (arrays only of enum strings). The error names the field by its title, for the user to correct.
 */
export function checkElicitationContent(requestedSchema: Record<string, unknown>, content: unknown): ArgumentsCheck {
  if (!isPlainObject(content)) return { ok: false, error: 'The answer must be an object of form fields.' };
  for (const [name, field] of Object.entries(content)) {
    const primitive = ['string', 'number', 'boolean'].includes(typeof field) || (Array.isArray(field) && field.every((entry) => typeof entry === 'string'));
    if (!primitive) return { ok: false, error: `The field "${name}" must be text, a number, a yes/no choice or a list of options.` };
  }
  const problems = findSchemaProblems(requestedSchema, content);
  if (problems.length === 0) return { ok: true, value: content };
  const titles = isPlainObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const named = problems.map((problem) => {
    const top = problem.path.split(/[.[]/)[0] ?? '';
    const title = isPlainObject(titles[top]) && typeof titles[top].title === 'string' ? titles[top].title : undefined;
    return title ? { ...problem, path: problem.path.replace(top, title) } : problem;
  });
  return { ok: false, error: `${named.map(describeProblem).join('; ')}.` };
}

/** An elicitation answer checked before it goes to the server: an accepted one must satisfy the requested schema. */
export function checkElicitationResponse(requestedSchema: Record<string, unknown>, response: ElicitationResponse): { ok: true; response: ElicitationResponse } | { ok: false; error: string } {
  if (response.action !== 'accept') return { ok: true, response: { action: response.action } };
  const check = checkElicitationContent(requestedSchema, response.content);
  return check.ok ? { ok: true, response: { action: 'accept', content: check.value as Record<string, unknown> } } : check;
}

function describeProblem(problem: SchemaProblem): string {
  return problem.path ? `field \`${problem.path}\` ${problem.message}` : problem.message;
}

interface ValidationState {
  root: Schema;
  problems: SchemaProblem[];
  depth: number;
}

function validate(schema: Schema, value: unknown, path: string, state: ValidationState): void {
  if (state.problems.length >= MAX_PROBLEMS) return;
  const add = (message: string, at: string = path) => void state.problems.push({ path: at, message });
  if (schema === true) return;
  if (schema === false) return add('is not allowed');
  if (state.depth > MAX_DEPTH) return add('is nested too deeply to check');
  const deeper: ValidationState = { ...state, depth: state.depth + 1 };

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(state.root, schema.$ref);
    if (target === undefined) return add(`refers to an unknown schema (${schema.$ref})`);
    validate(target, value, path, deeper);
  }

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
    if (!types.some((type) => typeof type === 'string' && hasType(value, type))) {
      return add(`must be ${types.map((type) => article(String(type))).join(' or ')}, not ${describeValue(value)}`);
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    return add(`must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if ('const' in schema && !deepEqual(schema.const, value)) return add(`must be ${JSON.stringify(schema.const)}`);

  if (typeof value === 'number') checkNumber(schema, value, add);
  if (typeof value === 'string') checkString(schema, value, add);
  if (Array.isArray(value)) checkArray(schema, value, path, deeper, add);
  if (isPlainObject(value)) checkObject(schema, value, path, deeper, add);

  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) validate(part as Schema, value, path, deeper);
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((part) => matches(part as Schema, value, deeper))) {
    add('does not match any of the allowed shapes');
  }
  if (Array.isArray(schema.oneOf)) {
    const count = schema.oneOf.filter((part) => matches(part as Schema, value, deeper)).length;
    if (count !== 1) add(count === 0 ? 'does not match any of the allowed shapes' : 'matches more than one of the allowed shapes');
  }
  if (schema.not !== undefined && matches(schema.not as Schema, value, deeper)) add('matches a shape that is not allowed');
}

function matches(schema: Schema, value: unknown, state: ValidationState): boolean {
  const trial: ValidationState = { ...state, problems: [] };
  validate(schema, value, '', trial);
  return trial.problems.length === 0;
}

function checkNumber(schema: Record<string, unknown>, value: number, add: (message: string) => void): void {
  if (typeof schema.minimum === 'number' && value < schema.minimum) add(`must be at least ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && value > schema.maximum) add(`must be at most ${schema.maximum}`);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) add(`must be more than ${schema.exclusiveMinimum}`);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) add(`must be less than ${schema.exclusiveMaximum}`);
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0 && !Number.isInteger(Number((value / schema.multipleOf).toPrecision(12)))) {
    add(`must be a multiple of ${schema.multipleOf}`);
  }
}

function checkString(schema: Record<string, unknown>, value: string, add: (message: string) => void): void {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) add(schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters long`);
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) add(`must be at most ${schema.maxLength} characters long`);
  if (typeof schema.pattern === 'string') {
    const pattern = compilePattern(schema.pattern);
    if (pattern && !pattern.test(value)) add(`must match the pattern ${schema.pattern}`);
  }
  if (typeof schema.format === 'string' && !matchesFormat(schema.format, value)) add(`must be a valid ${schema.format}`);
}

function checkArray(schema: Record<string, unknown>, value: unknown[], path: string, state: ValidationState, add: (message: string) => void): void {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) add(`must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) add(`must have at most ${schema.maxItems} item${schema.maxItems === 1 ? '' : 's'}`);
  if (schema.uniqueItems === true && value.some((item, index) => value.findIndex((other) => deepEqual(other, item)) !== index)) add('must not repeat an item');
  const items = schema.items;
  if (isPlainObject(items) || typeof items === 'boolean') value.forEach((item, index) => validate(items, item, `${path}[${index}]`, state));
}

function checkObject(schema: Record<string, unknown>, value: Record<string, unknown>, path: string, state: ValidationState, add: (message: string, at?: string) => void): void {
  const join = (key: string) => (path ? `${path}.${key}` : key);
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) if (typeof key === 'string' && !(key in value)) add('is required but missing', join(key));
  }
  for (const [key, entry] of Object.entries(value)) {
    const property = properties[key];
    if (property !== undefined) validate(property as Schema, entry, join(key), state);
    else if (schema.additionalProperties === false) add('is not an expected field', join(key));
    else if (isPlainObject(schema.additionalProperties)) validate(schema.additionalProperties, entry, join(key), state);
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true;
  }
}

function article(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return article(typeof value);
}

function matchesFormat(format: string, value: string): boolean {
  return STRING_FORMATS[format]?.(value) ?? true;
}

const patternCache = new Map<string, RegExp | undefined>();

/** A server's pattern as a RegExp (unicode mode, as JSON Schema means it); an unreadable one is ignored, not fatal. */
function compilePattern(source: string): RegExp | undefined {
  if (!patternCache.has(source)) {
    let compiled: RegExp | undefined;
    try {
      compiled = new RegExp(source, 'u');
    } catch {
      compiled = undefined;
    }
    patternCache.set(source, compiled);
  }
  return patternCache.get(source);
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return isPlainObject(node) || typeof node === 'boolean' ? node : undefined;
}

function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((key) => key in right && deepEqual(left[key], right[key]));
  }
  return false;
}
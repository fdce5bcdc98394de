import * as z from './zod-mini';
import { SCRIPT_PACE } from './limits';

const ScriptToolCall = z.strictObject({
  name: z.string().check(z.minLength(1)),
  /** The tool's input, passed to the loop as is; the loop validates it like any model's tool call. */
  args: z._default(z.record(z.string(), z.unknown()), {}),
});
type ScriptToolCall = z.infer<typeof ScriptToolCall>;

const ScriptUsage = z.strictObject({
  inputTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  outputTokens: z.optional(z.number().check(z.int(), z.gte(0))),
});
type ScriptUsage = z.infer<typeof ScriptUsage>;

/**
 * One scripted reply. `text` and `reasoning` may hold the placeholders `{{lastUserMessage}}`,
 * `{{lastAssistantMessage}}`, `{{lastToolResult}}`, `{{systemPrompt}}` and `{{attachments}}` (see README); tool calls
 * are yielded after the text.
 */
export const ScriptStep = z.strictObject({
  reasoning: z.optional(z.string()),
  text: z.optional(z.string()),
  toolCalls: z.optional(z.array(ScriptToolCall)),
  usage: z.optional(ScriptUsage),
});
export type ScriptStep = z.infer<typeof ScriptStep>;

const ScriptObject = z.strictObject({
  steps: z.array(ScriptStep),
  chunkSize: z._default(
    z.number().check(z.int(), z.gte(SCRIPT_PACE.chunkSize.min), z.lte(SCRIPT_PACE.chunkSize.max)),
    SCRIPT_PACE.chunkSize.default,
  ),
  chunkDelayMs: z._default(
    z.number().check(z.int(), z.gte(SCRIPT_PACE.chunkDelayMs.min), z.lte(SCRIPT_PACE.chunkDelayMs.max)),
    SCRIPT_PACE.chunkDelayMs.default,
  ),
});

/**
 * The scripted model's script (parsed JSON): either a bare array of steps or `{ steps, chunkSize?, chunkDelayMs? }`.
 * Step n is the reply to the conversation's n-th model call. Parsing always yields the object form with the pace filled in.
 */
export const Script = z.pipe(
  z.transform((value: unknown) => (Array.isArray(value) ? { steps: value } : value)),
  ScriptObject,
);
/** A script as a person writes it. */
export type Script = z.input<typeof ScriptObject> | z.input<typeof ScriptStep>[];
/** A validated script, normalized to the object form. */
export type ParsedScript = z.output<typeof Script>;

type ParseScriptResult = { ok: true; script: ParsedScript } | { ok: false; error: string };

const MAX_REPORTED_ISSUES = 3;

/**
 * Parses a script's JSON text. Never throws: a syntax error or a schema violation becomes one readable
 * sentence naming the field, e.g. `steps[2].toolCalls[0].name: expected a string, got a number`.
 */
export function parseScript(text: string): ParseScriptResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `The script is not valid JSON: ${detail}` };
  }
  const result = Script.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, script: result.data };
  const issues = result.error.issues;
  const shown = issues.slice(0, MAX_REPORTED_ISSUES).map(describeIssue);
  const more = issues.length > MAX_REPORTED_ISSUES ? ` (and ${issues.length - MAX_REPORTED_ISSUES} more)` : '';
  return { ok: false, error: shown.join('; ') + more };
}

/** `['steps', 2, 'toolCalls', 0, 'name']` → `steps[2].toolCalls[0].name`. */
function formatPath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else formatted += formatted === '' ? String(segment) : `.${String(segment)}`;
  }
  return formatted === '' ? 'script' : formatted;
}

const EXPECTED_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'a number' : 'a fractional number';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.path.length === 0) return 'script: expected an array of steps or an object with "steps"';
      const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
      const received = issue.input === undefined ? 'it is missing' : `got ${describeValue(issue.input)}`;
      return `${where}: expected ${expected}, ${received}`;
    }
    case 'unrecognized_keys':
      return `${where}: unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string') return `${where}: must not be empty`;
      return `${where}: must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `${where}: must be at most ${String(issue.maximum)}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

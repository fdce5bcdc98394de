// Imports nothing: the worker reads the first screen's commands with this before zod has loaded.

/** A field of a first-screen command: a string of `min` to `max` characters, or a safe integer in [`min`, `max`]. */
export type PlainField = { kind: 'string' | 'integer'; min: number; max: number; optional?: true };
type PlainShape = Readonly<Record<string, PlainField>>;

/** What COMMANDS takes for a record's id (a conversation's, a message's). */
export const RECORD_ID = { kind: 'string', min: 1, max: 100 } as const;
const SEQ = { kind: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER, optional: true } as const;

/**
 * The inputs of the commands the first screen sends (docs/architecture.md, "The first screen"), declared once:
 * COMMANDS builds their zod inputs from these (commands.ts, `plainInput`), and the worker's first screen reads them
 * with `readPlainInput` before zod loads.
 */
export const FIRST_SCREEN_INPUTS = {
  'conversation.list': {},
  'settings.get': {},
  'profiles.list': {},
  'sync.status': {},
  'requests.listPending': {},
  'conversation.discardUnused': { keep: { ...RECORD_ID, optional: true } },
  'conversation.open': { conversationId: RECORD_ID },
  'conversation.messages': { conversationId: RECORD_ID, beforeSeq: SEQ, fromSeq: SEQ, limit: { kind: 'integer', min: 1, max: 100_000 } },
} as const satisfies Record<string, PlainShape>;

export type FirstScreenType = keyof typeof FIRST_SCREEN_INPUTS;

/**
 * `raw`'s fields of `shape` (others dropped, an absent optional one left out) when each is as declared, as zod's
 * `z.object` of the same declaration reads it; undefined when one is not.
 */
export function readPlainInput(shape: PlainShape, raw: Readonly<Record<string, unknown>>): Record<string, string | number> | undefined {
  const data: Record<string, string | number> = {};
  for (const [name, field] of Object.entries(shape)) {
    const value = raw[name];
    if (value === undefined && field.optional) continue;
    if (!fits(field, value)) return undefined;
    data[name] = value;
  }
  return data;
}

function fits(field: PlainField, value: unknown): value is string | number {
  if (field.kind === 'string') return typeof value === 'string' && value.length >= field.min && value.length <= field.max;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= field.min && value <= field.max;
}

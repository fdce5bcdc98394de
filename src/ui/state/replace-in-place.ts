/** Merging a record into the one the store holds, keeping the identity of what did not change (see replaceInPlace). */

type Plain = Record<string, unknown>;

/**
 * Keys that are never merged or assigned: writing `to.__proto__ = …` (or merging into it) would change a prototype,
 * and an imported or model-made record can carry them as own keys (JSON.parse creates them).
 */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Fields holding data from outside (a tool call's arguments): replaced whole, never walked into. */
const OPAQUE_KEYS = new Set(['args', 'params']);

/**
 * Makes `target` equal to `source` while keeping the identity of its nested objects, like Solid's
 * `reconcile`: a streamed message then updates its text in place instead of re-creating its DOM,
 * which would also throw away the state of an open question form. Array items merge only with the item of the
 * same kind and identity (a block's toolCallId), so a shifted list never morphs one record into another.
 */
export function replaceInPlace(target: object, source: object): void {
  const to = target as Plain;
  const from = source as Plain;
  if (Array.isArray(to) && Array.isArray(from)) {
    from.forEach((value, index) => assignValue(to as unknown as Plain, String(index), value));
    if (to.length > from.length) (to as unknown[]).splice(from.length);
    return;
  }
  for (const key of Object.keys(to)) if (!Object.hasOwn(from, key) && !UNSAFE_KEYS.has(key)) delete to[key];
  for (const [key, value] of Object.entries(from)) {
    if (UNSAFE_KEYS.has(key)) continue;
    if (OPAQUE_KEYS.has(key)) {
      if (to[key] !== value) to[key] = value;
      continue;
    }
    assignValue(to, key, value);
  }
}

function assignValue(to: Plain, key: string, value: unknown): void {
  const current = Object.hasOwn(to, key) ? to[key] : undefined;
  if (current === value) return;
  if (isMergeable(current) && isMergeable(value) && Array.isArray(current) === Array.isArray(value) && sameRecord(current, value)) {
    replaceInPlace(current, value);
  } else {
    to[key] = value;
  }
}

function isMergeable(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** Blocks of different types, or of different tool calls, are different things: replace rather than morph. */
function sameRecord(left: object, right: object): boolean {
  const a = left as Plain;
  const b = right as Plain;
  return a.type === b.type && a.toolCallId === b.toolCallId && a.id === b.id;
}

import type { ModelPart } from '../../src/core/run/model';

/** `parts` with consecutive text (or reasoning) deltas merged, so any batching of a stream compares equal. */
export function mergeDeltas(parts: readonly ModelPart[]): ModelPart[] {
  const result: ModelPart[] = [];
  for (const part of parts) {
    const last = result.at(-1);
    if ((part.type === 'text-delta' || part.type === 'reasoning-delta') && last?.type === part.type) result[result.length - 1] = { type: part.type, text: last.text + part.text };
    else result.push(part);
  }
  return result;
}

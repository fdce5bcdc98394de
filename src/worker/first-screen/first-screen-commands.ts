import type { CommandOf } from '../../schema/commands';
import { FIRST_SCREEN_INPUTS, readPlainInput, type FirstScreenType } from '../../schema/first-screen-inputs';

/** The commands the first screen sends (list conversations, open one, its pending requests), answered before zod loads. */
export type FirstScreenCommand = { [T in FirstScreenType]: CommandOf<T> }[FirstScreenType];

/**
 * A first-screen command read from its one declaration (FIRST_SCREEN_INPUTS, from which COMMANDS builds its zod input),
 * so the worker can answer the first screen without loading zod. Anything else (another type, a field not as declared)
 * is undefined, and goes to the full handler, which validates it with zod and words the refusal.
 */
export function readFirstScreenCommand(raw: unknown): FirstScreenCommand | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const fields = raw as Record<string, unknown>;
  const type = fields.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIRST_SCREEN_INPUTS, type)) return undefined;
  const data = readPlainInput(FIRST_SCREEN_INPUTS[type as FirstScreenType], fields);
  return data && ({ ...data, type } as FirstScreenCommand);
}

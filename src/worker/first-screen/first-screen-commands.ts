import type { CommandOf } from '../../schema/commands';

/** The commands the first screen sends (list conversations, open one, its pending requests), answered before zod loads. */
export type FirstScreenCommand =
  | CommandOf<'conversation.list'>
  | CommandOf<'settings.get'>
  | CommandOf<'profiles.list'>
  | CommandOf<'sync.status'>
  | CommandOf<'requests.listPending'>
  | CommandOf<'conversation.discardUnused'>
  | CommandOf<'conversation.open'>
  | CommandOf<'conversation.messages'>;

const NO_FIELDS = new Set(['conversation.list', 'settings.get', 'profiles.list', 'sync.status', 'requests.listPending']);

/** What COMMANDS declares for a conversation id: a string of 1 to 100 characters. */
const isConversationId = (value: unknown): value is string => typeof value === 'string' && value.length >= 1 && value.length <= 100;
/** An integer in [min, max], as zod's `.int()` (a safe integer) with `.min()` and `.max()` reads it. */
const isInteger = (value: unknown, min: number, max: number): value is number => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/**
 * A first-screen command checked by hand against its declaration in COMMANDS, so the worker can answer the first screen
 * without loading zod. Sound, not complete: it returns a command only when the zod declaration accepts `raw` and would
 * give the same data (unknown fields dropped); anything else (another type, a doubtful field) is undefined, and goes to
 * the full handler, which validates it with zod and words the refusal. tests/unit/first-screen-commands.test.ts holds
 * it to that against the declarations.
 */
export function readFirstScreenCommand(raw: unknown): FirstScreenCommand | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const fields = raw as Record<string, unknown>;
  const type = fields.type;
  if (typeof type !== 'string') return undefined;
  if (NO_FIELDS.has(type)) return { type } as FirstScreenCommand;
  if (type === 'conversation.discardUnused') {
    if (fields.keep === undefined) return { type };
    return isConversationId(fields.keep) ? { type, keep: fields.keep } : undefined;
  }
  if (!isConversationId(fields.conversationId)) return undefined;
  const conversationId = fields.conversationId;
  if (type === 'conversation.open') return { type, conversationId };
  if (type !== 'conversation.messages' || !isInteger(fields.limit, 1, 100_000)) return undefined;
  const command: CommandOf<'conversation.messages'> = { type, conversationId, limit: fields.limit };
  for (const bound of ['beforeSeq', 'fromSeq'] as const) {
    const value = fields[bound];
    if (value === undefined) continue;
    if (!isInteger(value, 0, Number.MAX_SAFE_INTEGER)) return undefined;
    command[bound] = value;
  }
  return command;
}

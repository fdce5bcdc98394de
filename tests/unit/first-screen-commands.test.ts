import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFirstScreenCommand } from '../../src/worker/first-screen/first-screen-commands';
import { parseCommand } from '../../src/schema/commands';
import { FIRST_SCREEN_INPUTS, type FirstScreenType } from '../../src/schema/first-screen-inputs';

// The first screen's commands are declared once (FIRST_SCREEN_INPUTS): COMMANDS builds their zod inputs from that
// declaration, and the worker reads them with readPlainInput before zod loads. Both readings must agree.

const TYPES = Object.keys(FIRST_SCREEN_INPUTS) as FirstScreenType[];

/** A value that is sometimes right for a field and often just wrong. */
const value = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.constantFrom('a', 'c-1', 'x'.repeat(100), 'x'.repeat(101), '', ' ', 'conversation.open'),
  fc.integer({ min: -3, max: 100_003 }),
  fc.constantFrom(0, 1, 100_000, 100_001, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -1),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.jsonValue(),
);

const rawCommand = fc.record(
  {
    type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: fc.constantFrom('conversation.create', 'toString', '__proto__', '') }, { weight: 1, arbitrary: value }),
    conversationId: value,
    keep: value,
    limit: value,
    beforeSeq: value,
    fromSeq: value,
    extra: value,
  },
  { requiredKeys: ['type'] },
);

/** Data as the worker acts on it: a key set to undefined is the same as no key. */
const defined = (data: object) => Object.fromEntries(Object.entries(data).filter(([, field]) => field !== undefined));

describe('the first screen\'s commands, read without zod', () => {
  it('accept exactly what their zod inputs accept, and give the same data', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(rawCommand, async (raw) => {
        const quick = readFirstScreenCommand(raw);
        const parsed = await parseCommand(raw);
        const firstScreen = (TYPES as unknown[]).includes(raw.type);
        expect(quick !== undefined, JSON.stringify(raw)).toBe(firstScreen && parsed.success);
        if (quick && parsed.success) expect(defined(quick)).toEqual(defined(parsed.data));
      }),
      { numRuns: 3000 },
    );
  });

  it('accept the first screen\'s commands as the UI sends them, dropping unknown fields', () => {
    for (const type of ['conversation.list', 'settings.get', 'profiles.list', 'sync.status', 'requests.listPending'] as const) {
      expect(readFirstScreenCommand({ type, stray: 1 })).toEqual({ type });
    }
    expect(readFirstScreenCommand({ type: 'conversation.discardUnused' })).toEqual({ type: 'conversation.discardUnused' });
    expect(readFirstScreenCommand({ type: 'conversation.discardUnused', keep: 'c-1' })).toEqual({ type: 'conversation.discardUnused', keep: 'c-1' });
    expect(readFirstScreenCommand({ type: 'conversation.open', conversationId: 'c-1' })).toEqual({ type: 'conversation.open', conversationId: 'c-1' });
    expect(readFirstScreenCommand({ type: 'conversation.messages', conversationId: 'c-1', beforeSeq: 40, limit: 50 })).toEqual({ type: 'conversation.messages', conversationId: 'c-1', beforeSeq: 40, limit: 50 });
  });

  it('leave what they cannot vouch for to the full handler', () => {
    for (const raw of [
      null, 'conversation.list', [], { type: 'conversation.create' }, { type: 'message.send', conversationId: 'c-1', text: 'hi' },
      { type: 'conversation.open' }, { type: 'conversation.open', conversationId: '' }, { type: 'conversation.open', conversationId: 'x'.repeat(101) },
      { type: 'conversation.discardUnused', keep: 7 }, { type: 'conversation.messages', conversationId: 'c-1', limit: 0 },
      { type: 'conversation.messages', conversationId: 'c-1', limit: 1.5 }, { type: 'conversation.messages', conversationId: 'c-1', limit: 5, fromSeq: -1 },
    ]) expect(readFirstScreenCommand(raw), JSON.stringify(raw)).toBeUndefined();
  });
});

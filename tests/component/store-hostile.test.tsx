import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from '../../src/schema/messages/blocks';
import type { Conversation, Message } from '../../src/schema/records';
import { createUiStore } from '../../src/ui/state/store';

const conversation: Conversation = { id: 'c1', title: 'Imported', createdAt: 0, updatedAt: 1, runState: 'idle', completedSteps: 0 };

function message(blocks: Block[], updatedAt: number): Message {
  return { id: 'm1', conversationId: 'c1', seq: 0, role: 'assistant', blocks, status: 'complete', createdAt: 0, updatedAt };
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();
const baseline = prototypeKeys();

afterEach(() => {
  // Clean up so one failing case cannot poison the others, then say so.
  for (const key of prototypeKeys()) if (!baseline.includes(key)) delete (Object.prototype as Record<string, unknown>)[key];
});

describe('the UI store against hostile records', () => {
  it('does not pollute Object.prototype when blocks shift under a tool call with an own __proto__ key (the import attack)', () => {
    const { dispatch } = createUiStore();
    dispatch({ type: 'conversation-opened', conversation, messages: [] });
    const hostileArgs = JSON.parse('{"__proto__": {"polluted": "yes"}}') as unknown;
    const call = (id: string, args: unknown): Block => ({ type: 'tool_call', toolCallId: id, toolName: 'x', args, status: 'success', result: 'ok' });
    dispatch({ type: 'message-upserted', message: message([{ type: 'error', code: 'e', message: 'cut' }, call('a', {}), call('b', hostileArgs)], 1) });
    // Continue drops the error block: every block moves one place up.
    dispatch({ type: 'message-upserted', message: message([call('a', {}), call('b', hostileArgs)], 2) });
    dispatch({ type: 'message-upserted', message: message([call('b', hostileArgs), call('a', hostileArgs)], 3) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypeKeys()).toEqual(baseline);
  });

  it('never touches a prototype and always ends equal to the last record, whatever the records hold', () => {
    // JSON values with the dangerous keys mixed in at any depth, as JSON.parse would create them.
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'toolCallId', 'text'), fc.string({ maxLength: 4 }));
    const hostile = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
      object: fc.dictionary(key, tie('value'), { maxKeys: 4 }).map((record) => JSON.parse(JSON.stringify(record)) as unknown),
    })).value;
    const block = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 5 }) }),
      fc.record({ type: fc.constant('tool_call' as const), toolCallId: fc.constantFrom('a', 'b', 'c'), toolName: fc.constant('t'), args: hostile, status: fc.constant('success' as const) }),
      fc.record({ type: fc.constant('error' as const), code: fc.constant('x'), message: fc.string({ maxLength: 5 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(block, { maxLength: 5 }), { minLength: 1, maxLength: 6 }), (versions) => {
        const { state, dispatch } = createUiStore();
        dispatch({ type: 'conversation-opened', conversation, messages: [] });
        versions.forEach((blocks, index) => dispatch({ type: 'message-upserted', message: message(blocks as Block[], index + 1) }));
        expect(prototypeKeys()).toEqual(baseline);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(JSON.stringify(state.messages.c1?.[0]?.blocks)).toBe(JSON.stringify(versions.at(-1)));
      }),
      { numRuns: 300 },
    );
  });
});

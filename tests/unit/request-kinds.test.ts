import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readAnswers } from '../../src/core/question-outcomes';
import { REQUEST_KINDS } from '../../src/core/request-kinds';
import { resolveRequest } from '../../src/core/requests';
import type { QuestionRequestBlock } from '../../src/schema/blocks';
import { QUESTION_LIMITS, QuestionAnswer } from '../../src/schema/question';

// A question's answers are read by hand so requests resolve without zod; the hand check may never accept what the
// schema refuses, nor refuse what it accepts.
const Answers = z.object({ answers: z.array(QuestionAnswer).min(1).max(QUESTION_LIMITS.questions) });

const label = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('x'.repeat(QUESTION_LIMITS.label), 'x'.repeat(QUESTION_LIMITS.label + 1)), fc.integer(), fc.constant(null));
const answer = fc.oneof(
  fc.record({ selected: fc.oneof(fc.array(label, { maxLength: QUESTION_LIMITS.options + 1 }), label), other: fc.oneof(fc.string({ maxLength: 3 }), fc.constant('o'.repeat(QUESTION_LIMITS.otherText + 1)), fc.integer()) }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const params = fc.oneof(fc.record({ answers: fc.oneof(fc.array(answer, { maxLength: QUESTION_LIMITS.questions + 1 }), fc.jsonValue()) }, { requiredKeys: [] }), fc.jsonValue(), fc.constant(undefined));

describe('request kinds', () => {
  it('read a question\'s answers exactly as the schema accepts them', () => {
    fc.assert(
      fc.property(params, (raw) => {
        expect(readAnswers(raw) !== undefined, JSON.stringify(raw)).toBe(Answers.safeParse(raw).success);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuse malformed answers as a count problem and resolve well-formed ones', () => {
    const block: QuestionRequestBlock = { type: 'question_request', toolCallId: 'q1', status: 'pending', questions: [{ header: 'Trip', question: 'Where?', options: [{ label: 'Beach' }, { label: 'City' }], multiple: false, custom: false }] };
    const context = { now: 5, checkArgs: () => ({ ok: true as const, value: {} }), checkContent: () => ({ ok: true as const, value: {} }) };
    expect(resolveRequest(block, { approved: true, params: { answers: [{ selected: 'Beach' }] } }, context)).toMatchObject({ ok: false, reason: 'answer_count', field: 'params.answers' });
    expect(resolveRequest(block, { approved: true, params: { answers: [{ selected: ['Beach'], stray: 1 }] } }, context)).toMatchObject({ ok: true, runState: 'running', block: { status: 'success', answers: [{ selected: ['Beach'] }] } });
  });

  it('close only what a live run alone can receive when that run dies', () => {
    expect(Object.entries(REQUEST_KINDS).filter(([, kind]) => kind.closeWhenRunDies).map(([type]) => type)).toEqual(['elicitation_request']);
  });
});

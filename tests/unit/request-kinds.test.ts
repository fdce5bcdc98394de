import { describe, expect, it } from 'vitest';
import { REQUEST_KINDS } from '../../src/core/requests/request-kinds';
import { resolveRequest } from '../../src/core/requests/requests';
import type { QuestionRequestBlock } from '../../src/schema/blocks';

describe('request kinds', () => {
  it('refuse malformed answers as a count problem and resolve well-formed ones', () => {
    const block: QuestionRequestBlock = { type: 'question_request', toolCallId: 'q1', status: 'pending', questions: [{ header: 'Trip', question: 'Where?', options: [{ label: 'Beach' }, { label: 'City' }], multiple: false, custom: false }] };
    const context = { now: 5, checkArgs: () => ({ ok: true as const, value: {} }), checkContent: () => ({ ok: true as const, value: {} }) };
    expect(resolveRequest(block, { approved: true, params: { answers: [{ selected: 'Beach' }] } }, context)).toMatchObject({ ok: false, reason: 'answer_count', field: 'params.answers' });
    expect(resolveRequest(block, { approved: true, params: { answers: [{ selected: ['Beach'], stray: 1 }] } }, context)).toEqual({ ok: true, runState: 'running', block: expect.objectContaining({ status: 'success', answers: [{ selected: ['Beach'] }] }) });
  });

  it('close only what a live run alone can receive when that run dies', () => {
    expect(Object.entries(REQUEST_KINDS).filter(([, kind]) => kind.closeWhenRunDies).map(([type]) => type)).toEqual(['elicitation_request']);
  });
});

import { describe, expect, it } from 'vitest';
import { closeWhenRunDies, needsLiveRun } from '../../src/core/requests/request-kinds';
import { resolveRequest } from '../../src/core/requests/requests';
import type { Block, QuestionRequest } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';

/** The message that holds `block`. */
const messageWith = (block: Block): Message => ({ id: 'm1', conversationId: 'c1', seq: 1, role: 'assistant', blocks: [block], status: 'complete', createdAt: 0, updatedAt: 0 });

describe('request kinds', () => {
  it('refuse malformed answers as a count problem and resolve well-formed ones', () => {
    const block: QuestionRequest = { type: 'request', kind: 'question', requestId: 'q1', toolCallId: 'q1', status: 'pending', payload: { questions: [{ header: 'Trip', question: 'Where?', options: [{ label: 'Beach' }, { label: 'City' }], multiple: false, custom: false }] } };
    const context = { now: 5, checkArgs: () => ({ ok: true as const, value: {} }), checkContent: () => ({ ok: true as const, value: {} }) };
    expect(resolveRequest(messageWith(block), block, { approved: true, params: { answers: [{ selected: 'Beach' }] } }, context)).toMatchObject({ ok: false, reason: 'answer_count', field: 'params.answers' });
    expect(resolveRequest(messageWith(block), block, { approved: true, params: { answers: [{ selected: ['Beach'], stray: 1 }] } }, context)).toEqual({ ok: true, runState: 'running', change: { request: expect.objectContaining({ status: 'success', response: expect.objectContaining({ answers: [{ selected: ['Beach'] }] }) }) } });
  });

  it('close only what a live run alone can receive when that run dies', () => {
    const asked = { requestId: 'r1', toolCallId: 't1', status: 'pending' as const };
    const requests: Block[] = [
      { type: 'request', kind: 'question', ...asked, payload: { questions: [] } },
      { type: 'request', kind: 'permission', ...asked, payload: { toolName: 'write' } },
      { type: 'request', kind: 'rerun', ...asked, payload: { toolName: 'write' } },
      { type: 'request', kind: 'elicitation', ...asked, payload: { serverName: 's', message: 'Who?', requestedSchema: {} } },
    ];
    expect(requests.filter(needsLiveRun).map((block) => block.type === 'request' && block.kind)).toEqual(['elicitation']);
    expect(requests.map((block) => block.type === 'request' && closeWhenRunDies(block, 7)?.resolution)).toEqual([undefined, undefined, undefined, 'interrupted']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  CHAT_RESULT_TEXT,
  DISMISSED_RESULT_TEXT,
  STOPPED_RESULT_TEXT,
  checkAnswers,
  resolveQuestionBlock,
  type AnswerCheck,
} from '../../src/core/requests/question-outcomes';
import type { QuestionRequest } from '../../src/schema/messages/blocks';
import type { Question, QuestionAnswer } from '../../src/schema/forms/question';

const single: Question = {
  header: 'Trip',
  question: 'Where to?',
  options: [{ label: 'Beach' }, { label: 'Mountains', description: 'Cooler' }],
  multiple: false,
  custom: true,
};
const multi: Question = {
  header: 'Food',
  question: 'What do you eat?',
  options: [{ label: 'Fish' }, { label: 'Meat' }, { label: 'Vegetables' }],
  multiple: true,
  custom: true,
};
const strict: Question = {
  header: 'Pace',
  question: 'How fast?',
  options: [{ label: 'Slow' }, { label: 'Fast' }],
  multiple: false,
  custom: false,
};

function pendingBlock(questions: Question[] = [single, multi]): QuestionRequest {
  return {
    type: 'request',
    kind: 'question',
    requestId: 'call-1',
    toolCallId: 'call-1',
    payload: { questions },
    status: 'pending',
    draft: { answers: [{ selected: ['Beach'] }, { selected: [] }], otherChosen: [false, false], activeTab: 1 },
  };
}

const NOW = 1_700_000_000_000;

describe('resolveQuestionBlock: what the model is told', () => {
  it('answered: pairs each question with its answer, multi-select joined by ", "', () => {
    const answers: QuestionAnswer[] = [{ selected: ['Beach'] }, { selected: ['Fish', 'Meat'] }];
    const resolved = resolveQuestionBlock(pendingBlock(), 'answered', { now: NOW, answers });
    expect(resolved.response?.toolResult).toBe(
      'User has answered your questions: "Where to?"="Beach"; "What do you eat?"=["Fish", "Meat"]. You can now continue with the user\'s answers in mind.',
    );
    expect(resolved).toEqual({
      type: 'request',
      kind: 'question',
      requestId: 'call-1',
      toolCallId: 'call-1',
      payload: { questions: [single, multi] },
      status: 'success',
      resolution: 'answered',
      resolvedAt: NOW,
      response: { answers, toolResult: resolved.response?.toolResult },
    });
  });

  it('answered: includes the Other text after the chosen labels, and marks a skipped question', () => {
    const answers: QuestionAnswer[] = [{ selected: [], other: 'The lake' }, { selected: ['Fish'], other: 'Tofu' }];
    const three = resolveQuestionBlock(pendingBlock([single, multi, strict]), 'answered', {
      now: NOW,
      answers: [...answers, { selected: [] }],
    });
    expect(three.response?.toolResult).toBe(
      'User has answered your questions: "Where to?"=(typed by the user: "The lake"); "What do you eat?"="Fish" (typed by the user: "Tofu"); ' +
        '"How fast?"=(skipped: the user chose not to answer this one). You can now continue with the user\'s answers in mind.',
    );
  });

  it('answered: quotes and commas in options and typed text cannot be mistaken for the format', () => {
    const which = { header: 'Which', question: 'Which "one"?', options: [{ label: 'Museums, art' }, { label: 'Kayak' }], multiple: true, custom: true };
    const resolved = resolveQuestionBlock(pendingBlock([which]), 'answered', { now: NOW, answers: [{ selected: ['Museums, art', 'Kayak'], other: '"wild" swim' }] });
    expect(resolved.response?.toolResult).toBe(
      'User has answered your questions: "Which \\"one\\"?"=["Museums, art", "Kayak"] (typed by the user: "\\"wild\\" swim"). You can now continue with the user\'s answers in mind.',
    );
  });

  it('chat: success, resolution chat, the answering message id, no answers, and the unsent draft kept on record', () => {
    const resolved = resolveQuestionBlock(pendingBlock(), 'chat', {
      now: NOW,
      answerMessageId: 'message-9',
      answers: [{ selected: ['Beach'] }, { selected: [] }],
    });
    expect(resolved.response?.toolResult).toBe(
      'The user did not use the form and replied in chat instead. Their message follows as the next user message; treat it as their answer to these questions.',
    );
    expect(resolved.response?.toolResult).toBe(CHAT_RESULT_TEXT);
    expect(resolved).toMatchObject({ status: 'success', resolution: 'chat', resolvedAt: NOW, response: { answerMessageId: 'message-9' } });
    expect(resolved.response).not.toHaveProperty('answers');
    expect(resolved.draft?.answers).toEqual([{ selected: ['Beach'] }, { selected: [] }]); // shown as not sent, not lost
  });

  it('dismissed: denied, told not to ask again', () => {
    const resolved = resolveQuestionBlock(pendingBlock(), 'dismissed', { now: NOW });
    expect(resolved.response?.toolResult).toBe(
      'The user dismissed these questions without answering. Do not ask them again unless the user asks you to; wait for what the user writes next.',
    );
    expect(resolved.response?.toolResult).toBe(DISMISSED_RESULT_TEXT);
    expect(resolved).toMatchObject({ status: 'denied', resolution: 'dismissed', resolvedAt: NOW });
    expect(resolved.response).not.toHaveProperty('answers');
    expect(resolved.response).not.toHaveProperty('answerMessageId');
    expect(resolved).not.toHaveProperty('draft');
  });

  it('stopped: denied, told the user stopped the run', () => {
    const resolved = resolveQuestionBlock(pendingBlock(), 'stopped', { now: NOW });
    expect(resolved.response?.toolResult).toBe('The user stopped the run before answering these questions.');
    expect(resolved.response?.toolResult).toBe(STOPPED_RESULT_TEXT);
    expect(resolved).toMatchObject({ status: 'denied', resolution: 'stopped', resolvedAt: NOW });
    expect(resolved.response).not.toHaveProperty('answers');
    expect(resolved).not.toHaveProperty('draft');
  });

  it('removes the draft and leaves the pending block untouched', () => {
    const block = pendingBlock();
    const before = structuredClone(block);
    const resolved = resolveQuestionBlock(block, 'answered', { now: NOW, answers: [{ selected: ['Beach'] }, { selected: [] }] });
    expect(resolved).not.toHaveProperty('draft');
    expect(block).toEqual(before);
  });
});

function expectRejected(check: AnswerCheck): { field: string; message: string } {
  if (check.ok) throw new Error(`expected the answers to be rejected, got ${JSON.stringify(check.answers)}`);
  return check;
}

function expectAccepted(check: AnswerCheck): QuestionAnswer[] {
  if (!check.ok) throw new Error(`expected the answers to pass, got ${check.field}: ${check.message}`);
  return check.answers;
}

describe('checkAnswers', () => {
  it('rejects a label that is not an option, naming it and the question', () => {
    const error = expectRejected(checkAnswers([single, multi], [{ selected: ['Desert'] }, { selected: [] }]));
    expect(error.field).toBe('answers[0]');
    expect(error.message).toContain('"Desert"');
    expect(error.message).toContain('"Trip"');
  });

  it('matches labels exactly (a label in another case is not an option)', () => {
    const error = expectRejected(checkAnswers([single], [{ selected: ['beach'] }]));
    expect(error.message).toContain('"beach"');
  });

  it('rejects two labels for a single-choice question', () => {
    const error = expectRejected(checkAnswers([single], [{ selected: ['Beach', 'Mountains'] }]));
    expect(error).toEqual({ ok: false, field: 'answers[0]', reason: 'answer_single_only', params: { question: 'Trip' }, message: '"Trip" takes a single answer.' });
  });

  it('rejects a label plus Other text for a single-choice question', () => {
    const error = expectRejected(checkAnswers([multi, single], [{ selected: [] }, { selected: ['Beach'], other: 'Lake' }]));
    expect(error.field).toBe('answers[1]');
    expect(error.message).toContain('single answer');
  });

  it('rejects Other text when the question does not accept free text', () => {
    const error = expectRejected(checkAnswers([strict], [{ selected: [], other: 'Medium' }]));
    expect(error.field).toBe('answers[0]');
    expect(error.message).toContain('does not accept a free-text answer');
  });

  it('rejects the wrong number of answers', () => {
    expect(expectRejected(checkAnswers([single, multi], [{ selected: ['Beach'] }])).field).toBe('answers');
    const tooMany = expectRejected(checkAnswers([single], [{ selected: ['Beach'] }, { selected: [] }]));
    expect(tooMany.message).toBe('Expected 1 answers (one per question, empty to skip), got 2.');
  });

  it('rejects a submission where every question is skipped', () => {
    const error = expectRejected(checkAnswers([single, multi], [{ selected: [] }, { selected: [], other: '   ' }]));
    expect(error.field).toBe('answers');
    expect(error.message).toContain('dismiss');
  });

  it('removes duplicate labels (so a repeated single choice is still one answer)', () => {
    expect(expectAccepted(checkAnswers([single], [{ selected: ['Beach', 'Beach'] }]))).toEqual([{ selected: ['Beach'] }]);
    expect(expectAccepted(checkAnswers([multi], [{ selected: ['Fish', 'Meat', 'Fish'] }]))).toEqual([{ selected: ['Fish', 'Meat'] }]);
  });

  it('trims the Other text and drops an empty one', () => {
    const answers = expectAccepted(
      checkAnswers([single, multi, strict], [{ selected: [], other: '  The lake \n' }, { selected: ['Fish'], other: '  ' }, { selected: [], other: '' }]),
    );
    expect(answers).toEqual([{ selected: [], other: 'The lake' }, { selected: ['Fish'] }, { selected: [] }]);
    expect(answers[1]).not.toHaveProperty('other');
  });

  it('accepts a valid multi-select answer with Other and a skipped question', () => {
    const answers = expectAccepted(
      checkAnswers([single, multi, strict], [{ selected: [] }, { selected: ['Vegetables', 'Fish'], other: 'Tofu' }, { selected: ['Fast'] }]),
    );
    expect(answers).toEqual([{ selected: [] }, { selected: ['Vegetables', 'Fish'], other: 'Tofu' }, { selected: ['Fast'] }]);
  });
});

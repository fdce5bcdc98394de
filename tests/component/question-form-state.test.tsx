import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/schema/forms/question';
import {
  answersFromState,
  createQuestionFormState,
  draftFromState,
  isAnswered,
  reduceQuestionForm,
  type QuestionFormAction,
  type QuestionFormState,
} from '../../src/ui/question/state/question-form-state';

const questions: Question[] = [
  {
    header: 'Budget',
    question: 'What is your budget?',
    options: [{ label: 'Low' }, { label: 'High' }],
    multiple: false,
    custom: true,
  },
  {
    header: 'Features',
    question: 'Which features do you need?',
    options: [{ label: 'Search' }, { label: 'Sync' }, { label: 'Export' }],
    multiple: true,
    custom: true,
  },
  {
    header: 'Colour',
    question: 'Which colour?',
    options: [{ label: 'Red' }, { label: 'Blue' }],
    multiple: false,
    custom: false,
  },
];

function run(actions: QuestionFormAction[], start = createQuestionFormState(questions)): QuestionFormState {
  return actions.reduce((state, action) => reduceQuestionForm(questions, state, action), start);
}

describe('createQuestionFormState', () => {
  it('starts empty on the first tab without a draft', () => {
    const state = createQuestionFormState(questions);
    expect(state).toEqual({
      selected: [[], [], []],
      otherChosen: [false, false, false],
      otherText: ['', '', ''],
      activeTab: 0,
    });
  });

  it('restores a draft and drops what no longer fits the question', () => {
    const state = createQuestionFormState(questions, {
      answers: [
        { selected: ['Low', 'High'], other: 'ignored because an option is chosen' },
        { selected: ['Sync', 'Gone', 'Sync'], other: 'half typ' },
        { selected: ['Blue'], other: 'no custom here' },
      ],
      otherChosen: [true, true, true],
      activeTab: 1,
    });
    expect(state.selected).toEqual([['Low'], ['Sync'], ['Blue']]);
    // Single choice cannot hold an option and "Other" at once; a question without custom has no "Other".
    expect(state.otherChosen).toEqual([false, true, false]);
    expect(state.otherText).toEqual(['ignored because an option is chosen', 'half typ', '']);
    expect(state.activeTab).toBe(1);
  });

  it('treats saved Other text as chosen when an older draft has no otherChosen', () => {
    const state = createQuestionFormState(questions, { answers: [{ selected: [], other: 'Medium' }] });
    expect(state.otherChosen[0]).toBe(true);
  });

  it('falls back to the first tab when the saved tab is out of range', () => {
    expect(createQuestionFormState(questions, { answers: [], activeTab: 4 }).activeTab).toBe(0);
    expect(createQuestionFormState(questions, { answers: [], activeTab: 3 }).activeTab).toBe(3);
  });
});

describe('reduceQuestionForm', () => {
  it('keeps one option or Other for a single-choice question', () => {
    const afterOther = run([
      { type: 'option-picked', questionIndex: 0, label: 'Low' },
      { type: 'other-picked', questionIndex: 0 },
      { type: 'other-text-changed', questionIndex: 0, text: 'Medium' },
    ]);
    expect(afterOther.selected[0]).toEqual([]);
    expect(afterOther.otherChosen[0]).toBe(true);

    const backToOption = run([{ type: 'option-picked', questionIndex: 0, label: 'High' }], afterOther);
    expect(backToOption.selected[0]).toEqual(['High']);
    expect(backToOption.otherChosen[0]).toBe(false);
    // The typed text survives, so choosing Other again brings it back.
    expect(backToOption.otherText[0]).toBe('Medium');
  });

  it('toggles options and Other independently for a multiple-choice question', () => {
    const state = run([
      { type: 'option-picked', questionIndex: 1, label: 'Search' },
      { type: 'option-picked', questionIndex: 1, label: 'Export' },
      { type: 'other-picked', questionIndex: 1 },
      { type: 'option-picked', questionIndex: 1, label: 'Search' },
    ]);
    expect(state.selected[1]).toEqual(['Export']);
    expect(state.otherChosen[1]).toBe(true);
    expect(run([{ type: 'other-picked', questionIndex: 1 }], state).otherChosen[1]).toBe(false);
  });

  it('ignores unknown labels, Other where custom is false, and unknown questions', () => {
    const start = createQuestionFormState(questions);
    expect(reduceQuestionForm(questions, start, { type: 'option-picked', questionIndex: 0, label: 'Nope' })).toBe(start);
    expect(reduceQuestionForm(questions, start, { type: 'other-picked', questionIndex: 2 })).toBe(start);
    expect(reduceQuestionForm(questions, start, { type: 'option-picked', questionIndex: 7, label: 'Low' })).toBe(start);
  });

  it('clears one answer and clamps tabs to the Review tab', () => {
    const state = run([
      { type: 'option-picked', questionIndex: 1, label: 'Sync' },
      { type: 'other-picked', questionIndex: 1 },
      { type: 'answer-cleared', questionIndex: 1 },
      { type: 'tab-activated', tab: 99 },
    ]);
    expect(state.selected[1]).toEqual([]);
    expect(state.otherChosen[1]).toBe(false);
    expect(state.activeTab).toBe(3);
  });
});

describe('answersFromState', () => {
  it('aligns answers with the questions, trims Other and marks skipped questions', () => {
    const state = run([
      { type: 'other-picked', questionIndex: 0 },
      { type: 'other-text-changed', questionIndex: 0, text: '  Medium  ' },
      { type: 'option-picked', questionIndex: 1, label: 'Sync' },
      { type: 'other-picked', questionIndex: 1 },
      { type: 'other-text-changed', questionIndex: 1, text: '   ' },
    ]);
    expect(answersFromState(questions, state)).toEqual([
      { selected: [], other: 'Medium' },
      { selected: ['Sync'] },
      { selected: [] },
    ]);
  });

  it('leaves out Other text that is no longer chosen', () => {
    const state = run([
      { type: 'other-picked', questionIndex: 0 },
      { type: 'other-text-changed', questionIndex: 0, text: 'Medium' },
      { type: 'option-picked', questionIndex: 0, label: 'Low' },
    ]);
    expect(answersFromState(questions, state)[0]).toEqual({ selected: ['Low'] });
  });
});

describe('draftFromState', () => {
  it('round-trips through createQuestionFormState, untrimmed', () => {
    const state = run([
      { type: 'option-picked', questionIndex: 1, label: 'Export' },
      { type: 'other-picked', questionIndex: 1 },
      { type: 'other-text-changed', questionIndex: 1, text: 'half typ ' },
      { type: 'tab-activated', tab: 1 },
    ]);
    const draft = draftFromState(state);
    expect(draft.answers[1]).toEqual({ selected: ['Export'], other: 'half typ ' });
    expect(createQuestionFormState(questions, draft)).toEqual(state);
  });
});

describe('isAnswered', () => {
  it('needs an option or non-blank Other text', () => {
    expect(isAnswered({ selected: [] })).toBe(false);
    expect(isAnswered({ selected: [], other: '  ' })).toBe(false);
    expect(isAnswered({ selected: [], other: 'x' })).toBe(true);
    expect(isAnswered({ selected: ['Low'] })).toBe(true);
    expect(isAnswered(undefined)).toBe(false);
  });
});

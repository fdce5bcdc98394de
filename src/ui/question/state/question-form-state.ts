import { QUESTION_LIMITS } from '../../../schema/limits';
import type { Question, QuestionAnswer, QuestionDraft } from '../../../schema/forms/question';

/**
 * Everything the pending question form holds, per question by index, plus the active tab
 * (`questions.length` is the Review tab). Pure data: the form changes it only through `reduceQuestionForm`.
 */
export interface QuestionFormState {
  readonly selected: readonly (readonly string[])[];
  readonly otherChosen: readonly boolean[];
  /** Kept even while "Other" is not chosen, so un-ticking and re-ticking it does not lose the text. */
  readonly otherText: readonly string[];
  readonly activeTab: number;
}

/** What the user did. Named noun-action, like the app's events. */
export type QuestionFormAction =
  | { type: 'option-picked'; questionIndex: number; label: string }
  | { type: 'other-picked'; questionIndex: number }
  | { type: 'other-text-changed'; questionIndex: number; text: string }
  | { type: 'answer-cleared'; questionIndex: number }
  | { type: 'tab-activated'; tab: number };

/**
 * The form's first state, from the saved draft when there is one. The draft is stored data that may be
 * older than the question's shape, so unknown labels are dropped and single-choice keeps one choice.
 */
export function createQuestionFormState(questions: readonly Question[], draft?: QuestionDraft): QuestionFormState {
  const selected = questions.map((question, index) => {
    const known = new Set(question.options.map((option) => option.label));
    const saved = (draft?.answers[index]?.selected ?? []).filter((label) => known.has(label));
    const unique = [...new Set(saved)];
    return question.multiple ? unique : unique.slice(0, 1);
  });
  const otherChosen = questions.map((question, index) => {
    if (!question.custom) return false;
    if (isFreeTextOnly(question)) return true; // its one field is the "Other" text
    const chosen = draft?.otherChosen?.[index] ?? Boolean(draft?.answers[index]?.other?.trim());
    return question.multiple ? chosen : chosen && (selected[index]?.length ?? 0) === 0;
  });
  const otherText = questions.map((question, index) =>
    question.custom ? (draft?.answers[index]?.other ?? '').slice(0, QUESTION_LIMITS.otherText) : '',
  );
  const savedTab = draft?.activeTab ?? 0;
  const activeTab = Number.isInteger(savedTab) && savedTab >= 0 && savedTab <= questions.length ? savedTab : 0;
  return { selected, otherChosen, otherText, activeTab };
}

/** The one way the form's state changes. Single-choice keeps at most one of (an option, "Other"). */
export function reduceQuestionForm(
  questions: readonly Question[],
  state: QuestionFormState,
  action: QuestionFormAction,
): QuestionFormState {
  if (action.type === 'tab-activated') {
    const tab = Math.min(Math.max(action.tab, 0), questions.length);
    return tab === state.activeTab ? state : { ...state, activeTab: tab };
  }
  const index = action.questionIndex;
  const question = questions[index];
  if (!question) return state;
  switch (action.type) {
    case 'option-picked': {
      if (!question.options.some((option) => option.label === action.label)) return state;
      const current = state.selected[index] ?? [];
      if (question.multiple) {
        const next = current.includes(action.label)
          ? current.filter((label) => label !== action.label)
          : [...current, action.label];
        return { ...state, selected: replaceAt(state.selected, index, next) };
      }
      return {
        ...state,
        selected: replaceAt(state.selected, index, [action.label]),
        otherChosen: replaceAt(state.otherChosen, index, false),
      };
    }
    case 'other-picked': {
      if (!question.custom) return state;
      if (question.multiple) {
        return { ...state, otherChosen: replaceAt(state.otherChosen, index, !state.otherChosen[index]) };
      }
      return {
        ...state,
        selected: replaceAt(state.selected, index, []),
        otherChosen: replaceAt(state.otherChosen, index, true),
      };
    }
    case 'other-text-changed':
      if (!question.custom) return state;
      return { ...state, otherText: replaceAt(state.otherText, index, action.text.slice(0, QUESTION_LIMITS.otherText)) };
    case 'answer-cleared':
      if (isFreeTextOnly(question)) return { ...state, otherText: replaceAt(state.otherText, index, '') };
      return {
        ...state,
        selected: replaceAt(state.selected, index, []),
        otherChosen: replaceAt(state.otherChosen, index, false),
      };
  }
}

/**
 * The answers to send, aligned with `questions` by index. Nothing chosen gives `{selected: []}` (skipped);
 * `other` is the trimmed text, present only when "Other" is chosen and the text is not blank.
 */
export function answersFromState(questions: readonly Question[], state: QuestionFormState): QuestionAnswer[] {
  return questions.map((question, index) => {
    const other = question.custom && state.otherChosen[index] ? (state.otherText[index] ?? '').trim() : '';
    const selected = [...(state.selected[index] ?? [])];
    return other ? { selected, other } : { selected };
  });
}

/** The draft to save: half-typed text is kept untrimmed so a reload gives back exactly what was typed. */
export function draftFromState(state: QuestionFormState): QuestionDraft {
  return {
    answers: state.selected.map((selected, index) => {
      const other = state.otherText[index] ?? '';
      return other ? { selected: [...selected], other } : { selected: [...selected] };
    }),
    otherChosen: [...state.otherChosen],
    activeTab: state.activeTab,
  };
}

/** A question with no options: answered only in the user's own words, in one text field. */
export function isFreeTextOnly(question: Question): boolean {
  return question.custom && question.options.length === 0;
}

/** Whether an answer says anything: an option or some "Other" text. */
export function isAnswered(answer: QuestionAnswer | undefined): boolean {
  return Boolean(answer && (answer.selected.length > 0 || answer.other?.trim()));
}

function replaceAt<T>(items: readonly T[], index: number, value: T): T[] {
  const copy = [...items];
  copy[index] = value;
  return copy;
}

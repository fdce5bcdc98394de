import * as z from '../zod-mini';
import { QUESTION_LIMITS } from '../limits';

/** Limits of the question tool; the form, the validator and the tool description all read these (zod-free, in limits.ts). */
export { QUESTION_LIMITS };

const QuestionOption = z.object({
  label: z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.label)),
  description: z.optional(z.string().check(z.maxLength(QUESTION_LIMITS.description))),
});
type QuestionOption = z.infer<typeof QuestionOption>;

export const Question = z
  .object({
    header: z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.header), z.describe('Very short chip label, e.g. "Budget"')),
    question: z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.question), z.describe('The full question, ending with "?"')),
    options: z.array(QuestionOption).check(z.maxLength(QUESTION_LIMITS.options)),
    multiple: z._default(z.boolean(), false).check(z.describe('Allow several options to be chosen')),
    custom: z._default(z.boolean(), true).check(z.describe('Offer a free-text "Other" answer')),
  })
  .check(
    z.superRefine((question, context) => {
      // With custom on, no options at all is a free-text question ("What should the project be called?").
      if (!question.custom && question.options.length < 2) {
        context.addIssue({ code: 'custom', path: ['options'], message: 'needs at least 2 options when custom is false' });
      }
      const seen = new Set<string>();
      question.options.forEach((option, index) => {
        const key = option.label.toLowerCase();
        if (seen.has(key)) {
          context.addIssue({ code: 'custom', path: ['options', index, 'label'], message: `duplicate label "${option.label}"` });
        }
        seen.add(key);
      });
    }),
  );
export type Question = z.infer<typeof Question>;

/** The question tool's model-facing input: the one source of its JSON schema, its types and the form. */
export const QuestionToolInput = z
  .object({
    questions: z.array(Question).check(z.minLength(1), z.maxLength(QUESTION_LIMITS.questions)),
  })
  .check(
    z.superRefine((input, context) => {
      const seen = new Set<string>();
      input.questions.forEach((question, index) => {
        if (seen.has(question.question)) {
          context.addIssue({ code: 'custom', path: ['questions', index, 'question'], message: 'duplicate question text' });
        }
        seen.add(question.question);
      });
    }),
  );
export type QuestionToolInput = z.infer<typeof QuestionToolInput>;

/** One question's answer: chosen option labels and/or the "Other" text. Nothing chosen means skipped. */
export const QuestionAnswer = z.object({
  selected: z.array(z.string().check(z.maxLength(QUESTION_LIMITS.label))).check(z.maxLength(QUESTION_LIMITS.options)),
  other: z.optional(z.string().check(z.maxLength(QUESTION_LIMITS.otherText))),
});
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;

/** A half-filled form, saved so that a reload brings it back. */
export const QuestionDraft = z.object({
  answers: z.array(QuestionAnswer).check(z.maxLength(QUESTION_LIMITS.questions)),
  /** Whether the "Other" choice is ticked, per question (its text may still be empty). */
  otherChosen: z.optional(z.array(z.boolean()).check(z.maxLength(QUESTION_LIMITS.questions))),
  activeTab: z.optional(z.number().check(z.int(), z.gte(0), z.lte(QUESTION_LIMITS.questions))),
});
export type QuestionDraft = z.infer<typeof QuestionDraft>;

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuestionInput, type QuestionInputResult } from '../../src/core/requests/question-tool';
import { QuestionToolInput } from '../../src/schema/forms/question';

// Model output is untrusted: whatever arrives, the validator must answer with a value the schema accepts or an error
// text the model can act on. Never a throw.

/** A string that is sometimes valid for the field, sometimes padded, empty or too long. */
const text = (maxLength: number) =>
  fc.oneof(
    fc.string({ minLength: 1, maxLength }),
    fc.string({ maxLength: maxLength + 5 }).map((value) => ` ${value}\t`),
    fc.constantFrom('', 'Other', ' other ', 'x'.repeat(maxLength + 1)),
  );

/** Any value at all for a field, or a plausible one. */
const field = <T>(plausible: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: fc.jsonValue() });

const option = fc.oneof(
  text(30),
  fc.record({ label: field(text(30)), description: field(fc.oneof(text(200), fc.constant(null))) }, { requiredKeys: [] }),
  fc.jsonValue(),
);

const questionShaped = fc.record(
  {
    header: field(text(30)),
    question: field(fc.oneof(text(500), fc.constantFrom('Which?', 'Which? '))),
    options: field(fc.array(option, { maxLength: 12 })),
    multiple: field(fc.boolean()),
    multiSelect: field(fc.boolean()),
    custom: field(fc.boolean()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const inputShaped = fc.record(
  { questions: field(fc.array(field(questionShaped), { maxLength: 6 })), other: fc.jsonValue() },
  { requiredKeys: [] },
);

/** Input that a careful model would send: usually valid, so the accepting branch is exercised too. */
const meaningful = (maxLength: number) =>
  fc.string({ minLength: 1, maxLength }).filter((value) => value.trim().length > 0 && value.trim().toLowerCase() !== 'other');
const plausibleQuestion = fc.record(
  {
    header: meaningful(30),
    question: meaningful(500),
    options: fc.uniqueArray(
      fc.oneof(meaningful(30), fc.record({ label: meaningful(30), description: fc.string({ maxLength: 200 }) })),
      { minLength: 2, maxLength: 10, selector: (item) => (typeof item === 'string' ? item : item.label).trim().toLowerCase() },
    ),
    multiple: fc.boolean(),
    multiSelect: fc.boolean(),
    custom: fc.boolean(),
  },
  { requiredKeys: ['header', 'question', 'options'] },
);
const plausibleInput = fc.record({
  questions: fc.uniqueArray(plausibleQuestion, { minLength: 1, maxLength: 4, selector: (item) => item.question.trim() }),
});

function checkResult(result: QuestionInputResult): void {
  if (result.ok) {
    expect(QuestionToolInput.safeParse(result.value).success).toBe(true);
    for (const question of result.value.questions) {
      expect(question.header).toBe(question.header.trim());
      expect(question.question).toBe(question.question.trim());
      for (const item of question.options) {
        expect(item.label).toBe(item.label.trim());
        // The form adds its own "Other" when custom is on; with custom off, a model's "Other" is a real option.
        if (question.custom !== false) expect(item.label.toLowerCase()).not.toBe('other');
      }
    }
  } else {
    expect(typeof result.error).toBe('string');
    expect(result.error.length).toBeGreaterThan(0);
    expect(result.error).toMatch(/Please rewrite the input/);
  }
}

describe('parseQuestionInput on arbitrary input', () => {
  it('never throws on any JSON value, or its JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        checkResult(parseQuestionInput(value));
        checkResult(parseQuestionInput(JSON.stringify(value)));
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary JavaScript values', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => checkResult(parseQuestionInput(value))),
      { numRuns: 300 },
    );
  });

  it('answers question-shaped input with a schema-valid value or an error, and sees both', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.oneof(inputShaped, plausibleInput), (input) => {
        const result = parseQuestionInput(input);
        checkResult(result);
        if (result.ok) accepted += 1;
        else rejected += 1;
      }),
      { numRuns: 500 },
    );
    // Both branches must be exercised, or the property says nothing about one of them.
    expect(accepted).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });

  it('gives the same answer for an object and for its JSON text', () => {
    fc.assert(
      fc.property(fc.oneof(inputShaped, plausibleInput), (input) => {
        const direct = parseQuestionInput(input);
        const fromText = parseQuestionInput(JSON.stringify(input));
        expect(fromText.ok).toBe(direct.ok);
        if (direct.ok && fromText.ok) expect(JSON.stringify(fromText.value)).toBe(JSON.stringify(direct.value));
      }),
      { numRuns: 300 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseQuestionInput, type QuestionInputResult } from '../../src/core/requests/question-tool';
import { QUESTION_TOOL, toolSpecs } from '../../src/core/tools/tools';
import type { QuestionToolInput } from '../../src/schema/forms/question';

/** A valid question; `overrides` replaces or adds fields (`undefined` removes one). */
function question(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    header: 'Budget',
    question: 'How much do you want to spend?',
    options: [{ label: 'Low' }, { label: 'High' }],
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return base;
}

function expectOk(result: QuestionInputResult): QuestionToolInput {
  if (!result.ok) throw new Error(`expected valid input, got: ${result.error}`);
  return result.value;
}

function expectError(result: QuestionInputResult): string {
  if (result.ok) throw new Error(`expected an error, got: ${JSON.stringify(result.value)}`);
  return result.error;
}

const REWRITE_ENDING = 'Please rewrite the input so it satisfies the expected schema and call the tool again.';

describe('parseQuestionInput: valid input', () => {
  it('accepts one question and applies the defaults multiple=false, custom=true', () => {
    const value = expectOk(parseQuestionInput({ questions: [question()] }));
    expect(value.questions).toEqual([
      {
        header: 'Budget',
        question: 'How much do you want to spend?',
        options: [{ label: 'Low' }, { label: 'High' }],
        multiple: false,
        custom: true,
      },
    ]);
  });

  it('accepts four questions and keeps their order', () => {
    const texts = ['First?', 'Second?', 'Third?', 'Fourth?'];
    const value = expectOk(parseQuestionInput({ questions: texts.map((text) => question({ question: text })) }));
    expect(value.questions.map((item) => item.question)).toEqual(texts);
  });

  it('keeps explicit multiple and custom values', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ multiple: true, custom: false })] }));
    expect(value.questions[0]).toMatchObject({ multiple: true, custom: false });
  });

  it('accepts a single option when custom is true (the form adds "Other")', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ options: [{ label: 'Only' }] })] }));
    expect(value.questions[0]?.options).toEqual([{ label: 'Only' }]);
  });

  it('accepts a free-text question: no options with custom on ("What should the project be called?")', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ question: 'What should the project be called?', options: [] })] }));
    expect(value.questions[0]).toMatchObject({ options: [], custom: true });
  });

  it('accepts ten options and option descriptions, at the limits', () => {
    const options = Array.from({ length: 10 }, (_, index) => ({ label: `Option ${index}`, description: `About ${index}` }));
    options[0] = { label: 'L'.repeat(30), description: 'D'.repeat(200) };
    const value = expectOk(
      parseQuestionInput({ questions: [question({ header: 'H'.repeat(30), question: 'Q'.repeat(500), options })] }),
    );
    expect(value.questions[0]?.options).toEqual(options);
  });
});

describe('parseQuestionInput: lenient forms', () => {
  it('accepts the input as JSON text', () => {
    const input = { questions: [question({ multiple: true })] };
    expect(parseQuestionInput(JSON.stringify(input))).toEqual(parseQuestionInput(input));
    expect(expectOk(parseQuestionInput(JSON.stringify(input))).questions[0]?.multiple).toBe(true);
  });

  it('reads multiSelect as multiple, and lets an explicit multiple win', () => {
    const fromAlias = expectOk(parseQuestionInput({ questions: [question({ multiSelect: true })] }));
    expect(fromAlias.questions[0]?.multiple).toBe(true);
    expect(fromAlias.questions[0]).not.toHaveProperty('multiSelect');
    const both = expectOk(parseQuestionInput({ questions: [question({ multiple: false, multiSelect: true })] }));
    expect(both.questions[0]?.multiple).toBe(false);
  });

  it('trims header, question, labels and descriptions', () => {
    const value = expectOk(
      parseQuestionInput({
        questions: [
          question({
            header: '  Budget \n',
            question: '\tHow much?  ',
            options: [{ label: ' Low ', description: '  cheap  ' }, '  High  '],
          }),
        ],
      }),
    );
    expect(value.questions[0]).toMatchObject({
      header: 'Budget',
      question: 'How much?',
      options: [{ label: 'Low', description: 'cheap' }, { label: 'High' }],
    });
  });

  it('treats question texts that differ only by surrounding spaces as duplicates', () => {
    const error = expectError(
      parseQuestionInput({ questions: [question({ question: 'Why?' }), question({ question: '  Why?  ' })] }),
    );
    expect(error).toContain('questions[1].question: duplicate question text');
  });

  it('drops an option labelled "Other" in any case, since the form adds its own', () => {
    const value = expectOk(
      parseQuestionInput({
        questions: [question({ options: [{ label: 'Low' }, { label: 'Other' }, 'other', { label: ' OTHER ' }, { label: 'High' }] })],
      }),
    );
    expect(value.questions[0]?.options).toEqual([{ label: 'Low' }, { label: 'High' }]);
  });

  // With custom off the form adds no "Other" of its own, so a model's "Other" option must survive.
  it('leaves the user a way to answer "Other" when custom is false', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ custom: false, options: ['Yes', 'No', 'Other'] })] }));
    const asked = value.questions[0]!;
    expect(asked.custom || asked.options.some((option) => option.label.toLowerCase() === 'other')).toBe(true);
  });

  it('keeps options that merely contain the word "Other"', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ options: ['Another', 'Other plans'] })] }));
    expect(value.questions[0]?.options).toEqual([{ label: 'Another' }, { label: 'Other plans' }]);
  });

  it('accepts options given as plain strings', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ options: ['Low', 'High'] })] }));
    expect(value.questions[0]?.options).toEqual([{ label: 'Low' }, { label: 'High' }]);
  });

  it('treats a null description as no description', () => {
    const value = expectOk(parseQuestionInput({ questions: [question({ options: [{ label: 'Low', description: null }, 'High'] })] }));
    expect(value.questions[0]?.options[0]).toEqual({ label: 'Low' });
  });
});

describe('parseQuestionInput: invalid input names the field and the rule', () => {
  const tooMany = ['A?', 'B?', 'C?', 'D?', 'E?'].map((text) => question({ question: text }));
  const elevenOptions = Array.from({ length: 11 }, (_, index) => `Option ${index}`);
  const cases: Array<{ name: string; input: unknown; expected: string[] }> = [
    { name: 'zero questions', input: { questions: [] }, expected: ['questions:', '>=1'] },
    { name: 'five questions', input: { questions: tooMany }, expected: ['questions:', '<=4'] },
    {
      name: 'duplicate question text',
      input: { questions: [question(), question()] },
      expected: ['questions[1].question', 'duplicate question text'],
    },
    {
      name: 'duplicate labels, case-insensitive',
      input: { questions: [question({ options: ['Low', 'low'] })] },
      expected: ['questions[0].options[1].label', 'duplicate label "low"'],
    },
    { name: 'eleven options', input: { questions: [question({ options: elevenOptions })] }, expected: ['questions[0].options:', '<=10'] },
    {
      name: 'a label over 30 characters',
      input: { questions: [question({ options: ['L'.repeat(31), 'High'] })] },
      expected: ['questions[0].options[0].label', '<=30 characters'],
    },
    {
      name: 'a question over 500 characters',
      input: { questions: [question({ question: 'Q'.repeat(501) })] },
      expected: ['questions[0].question:', '<=500 characters'],
    },
    {
      name: 'a header over 30 characters',
      input: { questions: [question({ header: 'H'.repeat(31) })] },
      expected: ['questions[0].header:', '<=30 characters'],
    },
    {
      name: 'a description over 200 characters',
      input: { questions: [question({ options: [{ label: 'Low', description: 'D'.repeat(201) }, 'High'] })] },
      expected: ['questions[0].options[0].description', '<=200 characters'],
    },
    {
      name: 'one option with custom false',
      input: { questions: [question({ options: ['Only'], custom: false })] },
      expected: ['questions[0].options:', 'at least 2 options when custom is false'],
    },
    {
      name: 'no options with custom false',
      input: { questions: [question({ options: [], custom: false })] },
      expected: ['questions[0].options:', 'at least 2 options when custom is false'],
    },
    {
      name: 'a missing header',
      input: { questions: [question({ header: undefined })] },
      expected: ['questions[0].header:', 'expected string'],
    },
    {
      name: 'a header of only spaces',
      input: { questions: [question({ header: '   ' })] },
      expected: ['questions[0].header:', '>=1 characters'],
    },
    { name: 'a string that is not JSON', input: 'ask them about the budget', expected: ['input:', 'expected object'] },
    { name: 'a number', input: 42, expected: ['input:', 'expected object'] },
    { name: 'null', input: null, expected: ['input:', 'expected object'] },
    { name: 'an array', input: [question()], expected: ['input:', 'expected object'] },
    { name: 'questions not an array', input: { questions: question() }, expected: ['questions:', 'expected array'] },
    { name: 'questions missing', input: { question: 'Budget?' }, expected: ['questions:', 'expected array'] },
  ];

  it.each(cases)('rejects $name', ({ input, expected }) => {
    const error = expectError(parseQuestionInput(input));
    expect(error.startsWith('Invalid input for the question tool: ')).toBe(true);
    for (const part of expected) expect(error).toContain(part);
    expect(error.endsWith(REWRITE_ENDING)).toBe(true);
  });

  it('lists several problems in one error', () => {
    const error = expectError(
      parseQuestionInput({ questions: [question({ header: 'H'.repeat(31), question: 'Q'.repeat(501) })] }),
    );
    expect(error).toContain('questions[0].header');
    expect(error).toContain('questions[0].question');
  });
});

describe('the question tool as providers see it', () => {
  const spec = toolSpecs([QUESTION_TOOL])[0]!;

  it('is named "question" and says when not to ask', () => {
    expect(spec.name).toBe('question');
    expect(spec.description).toMatch(/Do not use it for/);
    expect(spec.description).toMatch(/only or the last tool call/);
  });

  it('declares questions as an array of at most 4 question objects with every field', () => {
    expect(spec.inputSchema).not.toHaveProperty('$schema');
    expect(spec.inputSchema.type).toBe('object');
    const properties = spec.inputSchema.properties as Record<string, Record<string, unknown>>;
    const questions = properties.questions!;
    expect(questions.type).toBe('array');
    expect(questions.minItems).toBe(1);
    expect(questions.maxItems).toBe(4);
    const item = questions.items as { type: string; properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(item.type).toBe('object');
    expect(Object.keys(item.properties).sort()).toEqual(['custom', 'header', 'multiple', 'options', 'question']);
    expect(item.required.sort()).toEqual(['header', 'options', 'question']);
    expect(item.properties.options).toMatchObject({ type: 'array', maxItems: 10 });
    expect(item.properties.multiple).toMatchObject({ type: 'boolean', default: false });
    expect(item.properties.custom).toMatchObject({ type: 'boolean', default: true });
    expect(item.properties.header).toMatchObject({ type: 'string', maxLength: 30 });
  });
});

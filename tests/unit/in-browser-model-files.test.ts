import { describe, expect, it } from 'vitest';
import { engineThreads, MAX_ENGINE_THREADS } from '../../src/schema/limits';
import { checkGguf, hasGgufMagic } from '../../src/worker/providers/in-browser/gguf-check';
import { splitUrls } from '../../src/worker/providers/in-browser/model-store';
import { toolCallGrammar } from '../../src/worker/providers/in-browser/tool-grammar';
import { QUESTION_TOOL, toolSpecs } from '../../src/core/tools/tools';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

describe('GGUF checks', () => {
  const model = writeTinyGguf();

  it('accepts the whole test model', async () => {
    expect(hasGgufMagic(model)).toBe(true);
    expect(await checkGguf(new Blob([model]))).toBeUndefined();
  });

  it('says a file is truncated when its tensors run past its end', async () => {
    const problem = await checkGguf(new Blob([model.subarray(0, model.length - 1000)]));
    expect(problem).toMatchObject({ code: 'truncated' });
  });

  it('says a file cut inside its header is truncated', async () => {
    expect(await checkGguf(new Blob([model.subarray(0, 200)]))).toMatchObject({ code: 'truncated' });
  });

  it('says a web page is not a GGUF file', async () => {
    expect(await checkGguf(new Blob(['<!doctype html><p>Not found</p>']))).toMatchObject({ code: 'not_gguf' });
  });
});

describe('split model URLs', () => {
  it('lists every part of a gguf-split model from the first part', () => {
    expect(splitUrls('https://h.co/m/model-Q4-00001-of-00003.gguf')).toEqual([
      'https://h.co/m/model-Q4-00001-of-00003.gguf',
      'https://h.co/m/model-Q4-00002-of-00003.gguf',
      'https://h.co/m/model-Q4-00003-of-00003.gguf',
    ]);
  });

  it('keeps a query string on each part and leaves a single file alone', () => {
    expect(splitUrls('https://h.co/a-00001-of-00002.gguf?download=true')[1]).toBe('https://h.co/a-00002-of-00002.gguf?download=true');
    expect(splitUrls('https://h.co/model.gguf')).toEqual(['https://h.co/model.gguf']);
  });
});

describe('question-call grammar', () => {
  it('allows only a Hermes tool call with the schema’s required fields, bounded', () => {
    const grammar = toolCallGrammar(toolSpecs([QUESTION_TOOL]));
    expect(grammar.split('\n')[0]).toBe('root ::= "<tool_call>\\n" (tool0) "\\n</tool_call>"');
    expect(grammar).toContain('"\\"questions\\": "');
    expect(grammar).toContain('"\\"header\\": "');
    expect(grammar).toContain('"\\"options\\": "');
    // Optional fields (multiple, custom, description) are left out; strings are short and start with a letter or digit.
    expect(grammar).not.toContain('multiple');
    expect(grammar).not.toContain('description');
    expect(grammar).toMatch(/\[a-zA-Z0-9\] \[a-zA-Z0-9 \]\{2,23\}/);
  });
});

describe('engine threads', () => {
  it('uses half the cores when the user chose nothing, one on a 2-core device, at most four', () => {
    expect(engineThreads(0, 2, true)).toBe(1);
    expect(engineThreads(0, 8, true)).toBe(4);
    expect(engineThreads(0, 32, true)).toBe(4);
  });

  it('uses the user\'s count, at most the cores and the cap', () => {
    expect(engineThreads(2, 2, true)).toBe(2);
    expect(engineThreads(6, 4, true)).toBe(4);
    expect(engineThreads(64, 64, true)).toBe(MAX_ENGINE_THREADS);
  });

  it('uses one thread on a page that is not cross-origin isolated, whatever was chosen', () => {
    expect(engineThreads(4, 8, false)).toBe(1);
    expect(engineThreads(0, 8, false)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { contextError, contextOverflow } from '../../src/worker/providers/in-browser/context-fit';

describe("fitting a request into the in-browser model's context", () => {
  it("reads llama.cpp's token counts from its refusal, and ignores other failures", () => {
    const refusal = Object.assign(new Error('request (2602 tokens) exceeds the available context size (2048 tokens), try increasing it'), { type: 'inference_error' });
    expect(contextOverflow(refusal)).toEqual({ promptTokens: 2602, contextTokens: 2048 });
    expect(contextOverflow(Object.assign(new Error('no room'), { type: 'kv_cache_full' }))).toEqual({});
    expect(contextOverflow(new Error('Model failed to start inference'))).toBeUndefined();
  });

  it('says a first message that cannot fit needs a larger-context model, and a long conversation a new one', () => {
    const first = contextError({ promptTokens: 2602, contextTokens: 2048 }, 4096, 1, undefined);
    expect(first.code).toBe('context_too_small');
    expect(first.message).toContain('only 2048 tokens of context');
    expect(first.message).toContain('Choose a model with a larger context');
    const later = contextError({}, 2048, 7, undefined);
    expect(later.code).toBe('bad_request');
    expect(later.message).toContain('2048 tokens of context');
    expect(later.message).toContain('Start a new conversation');
  });
});

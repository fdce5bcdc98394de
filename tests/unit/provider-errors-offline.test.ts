import { afterEach, describe, expect, it, vi } from 'vitest';
import { APICallError } from 'ai';
import { toModelError } from '../../src/worker/providers/errors';
import { ModelError } from '../../src/core/run/model';

afterEach(() => vi.unstubAllGlobals());

describe('toModelError while the browser is offline', () => {
  it('calls a connection dropped mid-answer a network wait, not a cut stream', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const error = await toModelError(new TypeError('network error'), { baseUrl: 'https://api.example.test/v1', apiKey: 'sk-secret', midStream: true });
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('network');
  });

  it('still calls the same failure a cut stream when online', async () => {
    vi.stubGlobal('navigator', { onLine: true });
    const error = await toModelError(new TypeError('network error'), { baseUrl: 'https://api.example.test/v1', apiKey: 'sk-secret', midStream: true });
    expect((error as ModelError).code).toBe('bad_stream');
  });

  it('passes an abort through unchanged even offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const abort = new DOMException('Stopped', 'AbortError');
    expect(await toModelError(abort, { baseUrl: 'https://api.example.test/v1', apiKey: '' })).toBe(abort);
  });

  it('believes a server that answered with an error status over a browser that says it is offline', async () => {
    // navigator.onLine can lie (some Chromium builds report the opposite of the truth); an HTTP answer cannot.
    vi.stubGlobal('navigator', { onLine: false });
    const refused = new APICallError({ message: 'Unauthorized', url: 'https://api.example.test/v1/chat/completions', requestBodyValues: {}, statusCode: 401, responseBody: '{"error":{"message":"bad key"}}' });
    const error = await toModelError(refused, { baseUrl: 'https://api.example.test/v1', apiKey: 'sk-secret' });
    expect((error as ModelError).code).toBe('auth');
  });
});

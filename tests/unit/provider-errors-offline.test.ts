import { afterEach, describe, expect, it, vi } from 'vitest';
import { toModelError } from '../../src/worker/providers/errors';
import { ModelError } from '../../src/core/model';

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
});

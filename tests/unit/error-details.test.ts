import { describe, expect, it } from 'vitest';
import { httpStatusError } from '../../src/worker/providers/errors';

// A provider failure carries its detail as a code and parameters the UI words in the user's language
// (tests/component/error-language.test.tsx words them); only the server's own words travel as text, never the key.
describe('provider error details', () => {
  const context = { baseUrl: 'https://api.example.com/v1', apiKey: 'sk-secret', model: 'gpt-x' };

  it('names each HTTP failure by a code with its status, model, URL and the server’s words', () => {
    expect(httpStatusError(401, {}, 'bad key sk-secret', context).detail).toEqual({ key: 'http_auth_model', params: { status: 401, model: 'gpt-x' } });
    expect(httpStatusError(404, {}, 'no such model', context).detail).toEqual({ key: 'http_not_found', params: { status: 404, baseUrl: 'https://api.example.com/v1', model: 'gpt-x', said: 'no such model' } });
    expect(httpStatusError(429, { 'retry-after': '7' }, 'Slow down sk-secret', context).detail).toEqual({ key: 'http_rate_limited_wait', params: { status: 429, seconds: 7, said: 'Slow down •••' } });
    expect(httpStatusError(503, {}, '', context).detail).toEqual({ key: 'http_server', params: { status: 503 } });
    expect(httpStatusError(400, {}, '', context).detail).toEqual({ key: 'http_rejected_silent', params: { status: 400 } });
  });
});

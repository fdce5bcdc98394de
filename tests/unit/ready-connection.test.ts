import { describe, expect, it } from 'vitest';
import { readyConnection } from '../../src/worker/providers/ready-connection';
import type { Profile } from '../../src/schema/records';

const profile = (kind: Profile['kind'], baseUrl: string): Profile => ({ id: 'p', name: 'P', kind, baseUrl, apiKey: 'sk-unit-secret', model: 'm' }) as Profile;

function recorder() {
  const sent: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), init });
    return new Response(null);
  }) as typeof fetch;
  return { sent, fetcher };
}

describe('readyConnection: a socket to the model server, opened ahead of a request', () => {
  it("sends one HEAD of the server's origin as a CORS request without credentials or headers: the socket pool of the provider's own (CORS) requests, no preflight, no key", () => {
    const { sent, fetcher } = recorder();
    readyConnection(profile('openai-compatible', 'http://127.0.0.1:1234/v1'), fetcher);
    readyConnection(profile('anthropic', 'https://api.anthropic.com/v1'), fetcher);
    expect(sent).toEqual([
      { url: 'http://127.0.0.1:1234/', init: { method: 'HEAD', mode: 'cors', credentials: 'omit', cache: 'no-store' } },
      { url: 'https://api.anthropic.com/', init: { method: 'HEAD', mode: 'cors', credentials: 'omit', cache: 'no-store' } },
    ]);
  });

  it('sends nothing for a kind with no server, or a base URL that is not http(s)', () => {
    const { sent, fetcher } = recorder();
    readyConnection(profile('scripted', ''), fetcher);
    readyConnection(profile('in-browser', ''), fetcher);
    readyConnection(profile('openai-compatible', 'not a url'), fetcher);
    readyConnection(profile('openai-compatible', 'ftp://example.test/v1'), fetcher);
    expect(sent).toEqual([]);
  });

  it('ignores a failure (the server down, offline)', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(() => readyConnection(profile('openai-compatible', 'http://127.0.0.1:9/v1'), failing)).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0)); // an unhandled rejection would fail the run
  });
});

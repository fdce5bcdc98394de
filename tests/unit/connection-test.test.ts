import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProviderServer, DEFAULT_MODELS, type ProviderServer } from '../server/provider-server';
import { testConnection } from '../../src/worker/providers/connection-test';
import type { Profile, ProviderKind } from '../../src/schema/records';

const KEY = 'sk-conn-9a8b7c6d5e4f3a2b1c0d';
const APP_ORIGIN = 'http://localhost:4173';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(() => vi.unstubAllGlobals());

function profile(kind: Exclude<ProviderKind, 'scripted'>, overrides: Partial<Profile> = {}): Profile {
  return { id: 'p1', name: 'Test', kind, baseUrl: `${server.url}/v1`, apiKey: KEY, model: 'test-model', ...overrides };
}

/** A fetch that enforces CORS the way a browser page's does (see providers.test.ts). */
function browserFetch(): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('origin', APP_ORIGIN);
    const { mode, ...rest } = init ?? {};
    const response = await fetch(input, { ...rest, headers });
    if (mode === 'no-cors') return response;
    if (response.headers.get('access-control-allow-origin') !== APP_ORIGIN) {
      await response.body?.cancel();
      throw new TypeError('Failed to fetch');
    }
    return response;
  };
}

describe('testConnection', () => {
  it('lists the models of an OpenAI-compatible server, sending the key as a Bearer token', async () => {
    const result = await testConnection(profile('openai-compatible'));
    expect(result).toEqual({ ok: true, reason: 'connected', params: { count: 2, model: 'test-model' }, message: 'Connected. 2 models available.', models: DEFAULT_MODELS });
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.headers['x-api-key']).toBeUndefined();
  });

  it("lists Anthropic's models with x-api-key, anthropic-version and the browser-access header", async () => {
    server.enqueue({ models: ['claude-test', 'claude-test-2', 'test-model'] });
    const result = await testConnection(profile('anthropic'));
    expect(result.ok).toBe(true);
    expect(result.models).toEqual(['claude-test', 'claude-test-2', 'test-model']);
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['x-api-key']).toBe(KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(headers.authorization).toBeUndefined();
  });

  it('sends no auth header without a key and says when the chosen model is not listed', async () => {
    const result = await testConnection(profile('openai-compatible', { apiKey: '', model: 'llama3.2' }));
    expect(result.ok).toBe(true);
    expect(result.message).toContain('"llama3.2" is not among them');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it.each(['openai-compatible', 'anthropic'] as const)('%s: a 401 says the key was rejected, without the key', async (kind) => {
    server.enqueue({ fail: 401, echoKeyInError: true });
    const result = await testConnection(profile(kind));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^The key was rejected/);
    expect(result.message).not.toContain(KEY);
    expect(result.models).toBeUndefined();
  });

  it('a 404 points at the base URL', async () => {
    server.enqueue({ fail: 404 });
    const result = await testConnection(profile('openai-compatible'));
    expect(result).toEqual({ ok: false, reason: 'models_not_found', message: expect.stringMatching(/\/v1\/models was not found \(HTTP 404\)\. Check the base URL/) });
  });

  // Settings has no Continue, so a 429 carries the server's Retry-After for the UI to say when to try again.
  it('a 429 passes on Retry-After as seconds, and nothing when the server sent none', async () => {
    server.enqueue({ fail: 429, retryAfterSeconds: 30 });
    expect(await testConnection(profile('openai-compatible'))).toMatchObject({ ok: false, reason: 'rate_limited', params: { status: 429, retryAfterSeconds: 30 } });
    server.enqueue({ fail: 429 });
    const plain = await testConnection(profile('anthropic'));
    expect(plain).toMatchObject({ ok: false, reason: 'rate_limited', params: { status: 429 } });
    expect(plain.params).not.toHaveProperty('retryAfterSeconds');
  });

  it('a 500 says the server failed and quotes it without the key', async () => {
    server.enqueue({ fail: 503, errorMessage: 'upstream down', echoKeyInError: true });
    const result = await testConnection(profile('openai-compatible'));
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/server error \(HTTP 503\).*upstream down/);
    expect(result.message).not.toContain(KEY);
  });

  it('says CORS, naming this origin, when the server does not allow it', async () => {
    vi.stubGlobal('location', { origin: APP_ORIGIN, protocol: 'http:' });
    server.enqueue({ noCors: true });
    const result = await testConnection(profile('openai-compatible'), { fetch: browserFetch() });
    expect(result.ok).toBe(false);
    expect(result.message).toContain(`must allow the origin ${APP_ORIGIN}`);
  });

  it('says the server cannot be reached when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await testConnection(profile('openai-compatible', { baseUrl: `http://127.0.0.1:${port}/v1/` }));
    expect(result).toEqual({
      ok: false,
      reason: 'network',
      message: expect.stringContaining(`Cannot reach http://127.0.0.1:${port}/v1`),
      detail: { key: 'unreachable', params: { baseUrl: `http://127.0.0.1:${port}/v1` } },
    });
  });

  it('rejects an answer that is not a model list', async () => {
    server.enqueue({ modelsBody: { status: 'ok', html: '<html>' } });
    const result = await testConnection(profile('openai-compatible'));
    expect(result).toEqual({ ok: false, reason: 'not_a_model_list', message: expect.stringContaining('answered, but not with a model list. Check the base URL') });
  });

  it('needs no connection for the scripted model, and a base URL for the others', async () => {
    expect(await testConnection({ id: 's', name: 'S', kind: 'scripted', baseUrl: '', apiKey: '', model: '' })).toMatchObject({ ok: true, reason: 'scripted' });
    expect(await testConnection({ id: 'l', name: 'L', kind: 'in-browser', baseUrl: '', apiKey: '', model: '' })).toMatchObject({ ok: true, reason: 'in_browser' });
    expect(await testConnection(profile('openai-compatible', { baseUrl: '' }))).toEqual({ ok: false, reason: 'missing_settings', message: 'Fill in a base URL first.' });
    expect(await testConnection(profile('anthropic', { apiKey: '' }))).toEqual({ ok: false, reason: 'missing_settings', message: 'Fill in an API key first.' });
    expect(server.requests).toHaveLength(0);
  });
});

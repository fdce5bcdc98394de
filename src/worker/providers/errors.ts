import type { ErrorDetail } from '../../schema/messages/blocks';
import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  StreamProviderError,
  TypeValidationError,
} from 'ai';
import { ModelError } from '../../core/run/model';

/** What a classifier needs to word an actionable message, and what it must keep out of it. */
export interface ProviderErrorContext {
  baseUrl: string;
  /** Scrubbed from every message; never logged. */
  apiKey: string;
  model?: string;
  /** True once part of the answer arrived: a failure after that is a cut stream, not a refused connection. */
  midStream?: boolean;
  /** The request headers the server's CORS settings must allow, named in the advice. */
  requestHeaders?: readonly string[];
  /** The fetch used for the reachability probe (tests pass a browser-like one). */
  fetch?: typeof fetch;
}

const PROBE_TIMEOUT_MS = 5000;
const PROVIDER_MESSAGE_LIMIT = 400;
// What each engine's fetch says when it never got a response: Chromium, Firefox, Safari, node/undici.
const FETCH_FAILED = ['failed to fetch', 'networkerror when attempting to fetch resource.', 'load failed', 'fetch failed'];

/**
 * Replaces the key with •••, and also what a provider echoes of it: a masked form (`sk-RED***CRET`, `sk-abcd…wxyz`)
 * whose visible start or end is the key's own, or a bare piece of the key of 8 characters or more.
 */
export function scrubSecret(text: string, secret: string): string {
  if (secret === '') return text;
  const whole = text.split(secret).join('•••');
  return whole.replace(/[\w\-.*•…]{6,}/g, (match) => {
    const token = match.replace(/(?<![.])[.,;:]$/, ''); // a sentence's full stop is not part of the key
    return echoesKey(token, secret) ? `•••${match.slice(token.length)}` : match;
  });
}

function echoesKey(token: string, secret: string): boolean {
  if (token.length >= 8 && secret.includes(token)) return true;
  const mask = /[*•…]+|\.{3,}|x{3,}/.exec(token);
  if (!mask) return false;
  const before = token.slice(0, mask.index);
  const after = token.slice(mask.index + mask[0].length);
  return (before.length >= 4 && secret.startsWith(before)) || (after.length >= 4 && secret.endsWith(after));
}

/** An AbortError (or a timeout) must reach the loop unchanged: it means Stop, not failure. */
/**
 * The provider's own message from an error body: OpenAI's `{ error: { message } }`, Anthropic's
 * `{ type: 'error', error: { message } }`, `{ error: "…" }` or `{ message }`; else the raw text, if short.
 */
export function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the raw text, if short, is the best we have.
  }
  return text.slice(0, 200);
}

/** An ErrorDetail with every text parameter scrubbed of the key (a server may echo it); empty texts are left out. */
function detailOf(key: string, params: Record<string, string | number | undefined>, apiKey: string): { detail: ErrorDetail } {
  const kept: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'number') kept[name] = value;
    else if (value) kept[name] = scrubSecret(value, apiKey);
  }
  return { detail: { key, params: kept } };
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * Classifies anything a provider call threw or streamed as a ModelError with a message the user can act on.
 * Abort errors come back unchanged (rethrow them). Never puts the key in a message.
 */
export async function toModelError(error: unknown, context: ProviderErrorContext): Promise<Error> {
  if (isAbortError(error)) return error as Error;
  if (error instanceof ModelError) return error;
  // An HTTP error status came from the server, so the network works whatever `navigator.onLine` says (it can lie).
  if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 400) {
    return httpStatusError(error.statusCode, error.responseHeaders ?? {}, providerMessage(error), context, error);
  }
  // Offline, any other failure (a refused request, a connection dropped mid-answer) is the network's: wait, do not fail.
  if (globalThis.navigator?.onLine === false) {
    return new ModelError('network', 'You are offline. The reply continues when the connection is back.', { cause: error, detail: { key: 'offline_waiting' } });
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    // A 2xx whose body then failed: the SDK wraps the read error ("terminated", "network error", bad JSON…).
    if (status !== undefined) return isMalformed(error.cause) ? malformedStreamError(error.cause, context) : cutStreamError(error, context);
    // The SDK wraps node's "fetch failed" like this: no response ever arrived.
    return context.midStream ? cutStreamError(error, context) : fetchFailureError(error, context);
  }
  if (isMalformed(error)) return malformedStreamError(error, context);
  if (StreamProviderError.isInstance(error)) {
    // An error event inside a 200 stream (Anthropic `overloaded_error`, OpenRouter `{error:{code:502}}`).
    const status = error.statusCode;
    if (status !== undefined && status >= 400) return httpStatusError(status, {}, error.message, context, error);
    return new ModelError('bad_stream', scrubSecret(`The provider reported an error mid-answer: ${truncate(error.message)}`, context.apiKey), {
      cause: error,
      ...detailOf('stream_error', { said: truncate(error.message) }, context.apiKey),
    });
  }
  // Once the answer has started, any other failure (Chromium's "network error", undici's "terminated") is a cut.
  if (context.midStream) return cutStreamError(error, context);
  if (error instanceof TypeError && FETCH_FAILED.includes(error.message.toLowerCase())) return fetchFailureError(error, context);
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('bad_request', scrubSecret(`The request to the provider failed: ${truncate(message)}`, context.apiKey), {
    cause: error,
    ...detailOf('request_failed', { said: truncate(message) }, context.apiKey),
  });
}

/** A non-2xx HTTP answer as a ModelError. `providerText` is the provider's own error message, if any. */
export function httpStatusError(
  status: number,
  headers: Headers | Record<string, string>,
  providerText: string,
  context: ProviderErrorContext,
  cause?: unknown,
): ModelError {
  const scrub = (text: string) => scrubSecret(text, context.apiKey);
  const detail = providerText ? ` The provider said: ${truncate(providerText)}` : '';
  const said = providerText ? truncate(providerText) : undefined;
  const words = (key: string, params: Record<string, string | number | undefined>) => detailOf(key, { status, ...params }, context.apiKey);
  if (status === 401 || status === 403) {
    // The provider's own words are left out: some echo part of the key.
    return new ModelError('auth', `The API key was rejected (HTTP ${status}). Check the key in this profile's settings, and that it is allowed to use ${context.model ? `the model "${scrub(context.model)}"` : 'this model'}.`, {
      cause,
      status,
      ...words(context.model ? 'http_auth_model' : 'http_auth', { model: context.model }),
    });
  }
  if (status === 404) {
    return new ModelError('not_found', scrub(`The server at ${context.baseUrl} answered 404 Not Found: the model "${context.model ?? ''}" may not exist there, or the base URL is wrong (OpenAI-compatible servers usually end in /v1).${detail}`), {
      cause,
      status,
      ...words('http_not_found', { baseUrl: context.baseUrl, model: context.model ?? '', said }),
    });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers);
    const wait = retryAfterMs === undefined ? '' : ` It asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`;
    return new ModelError('rate_limited', scrub(`The provider is rate-limiting requests (HTTP 429).${wait}${detail}`), {
      cause,
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...words(retryAfterMs === undefined ? 'http_rate_limited' : 'http_rate_limited_wait', { seconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000), said }),
    });
  }
  if (status >= 500) {
    return new ModelError('server', scrub(`The provider had a server error (HTTP ${status}). Try again in a moment.${detail}`), { cause, status, ...words('http_server', { said }) });
  }
  return new ModelError('bad_request', scrub(`The provider rejected the request (HTTP ${status}).${detail || ' It gave no reason.'}`), {
    cause,
    status,
    ...words(said ? 'http_rejected' : 'http_rejected_silent', { said }),
  });
}

/**
 * How long a 429 asks us to wait, in ms: `retry-after-ms`, else `Retry-After` as seconds or an HTTP date.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers | Record<string, string>, now: number = Date.now()): number | undefined {
  const read = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
    return entry?.[1];
  };
  const milliseconds = read('retry-after-ms');
  if (milliseconds !== undefined && milliseconds.trim() !== '' && Number.isFinite(Number(milliseconds))) {
    return Math.max(0, Number(milliseconds));
  }
  const value = read('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The request never got an answer. Offline → 'network'. Otherwise probe the server with an opaque no-cors fetch:
 * if that gets through, the server is up but refused this origin ('cors'); if not, it is unreachable ('network').
 */
export async function fetchFailureError(error: unknown, context: ProviderErrorContext): Promise<ModelError> {
  const scrub = (text: string) => scrubSecret(text, context.apiKey);
  if (globalThis.navigator?.onLine === false) {
    return new ModelError('network', 'You are offline, so the model provider cannot be reached. Reconnect and try again.', { cause: error, detail: { key: 'offline' } });
  }
  const origin = appOrigin();
  if (await isReachable(context)) {
    const message = looksLikeOllama(context.baseUrl)
      ? `Ollama at ${context.baseUrl} is running but does not allow requests from this app. Set OLLAMA_ORIGINS=${origin} in Ollama's environment (for example \`OLLAMA_ORIGINS=${origin} ollama serve\`) and restart Ollama.`
      : `The server at ${context.baseUrl} answered, but it does not allow requests from this app (CORS). The server must allow the origin ${origin}${context.requestHeaders?.length ? ` and the request headers ${context.requestHeaders.join(', ')}` : ''}.`;
    const headers = context.requestHeaders?.length ? context.requestHeaders.join(', ') : undefined;
    const key = looksLikeOllama(context.baseUrl) ? 'cors_ollama' : headers ? 'cors_headers' : 'cors';
    return new ModelError('cors', scrub(message), { cause: error, ...detailOf(key, { baseUrl: context.baseUrl, origin, headers }, context.apiKey) });
  }
  const mixedContent = globalThis.location?.protocol === 'https:' && context.baseUrl.startsWith('http:') && !isLoopback(context.baseUrl)
    ? ' This page is served over https, and browsers block requests to plain http servers other than localhost.'
    : '';
  return new ModelError('network', scrub(`Cannot reach ${context.baseUrl}. Check the base URL, that the server is running, and your connection.${mixedContent}`), {
    cause: error,
    ...detailOf(mixedContent ? 'unreachable_mixed_content' : 'unreachable', { baseUrl: context.baseUrl }, context.apiKey),
  });
}

function isMalformed(error: unknown): boolean {
  return (
    InvalidResponseDataError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error)
  );
}

export function malformedStreamError(error: unknown, context: ProviderErrorContext): ModelError {
  // The OpenAI-compatible provider reports a stream that simply ended as invalid data.
  if (InvalidResponseDataError.isInstance(error) && /ended without/i.test(error.message)) return cutStreamError(error, context);
  const detail = InvalidResponseDataError.isInstance(error) ? error.message : 'a chunk was not valid JSON of the expected shape';
  return new ModelError('bad_stream', scrubSecret(`The provider's answer stream was malformed (${detail}). Try Continue, or check that the base URL points to an OpenAI-compatible or Anthropic API.`, context.apiKey), {
    cause: error,
    ...detailOf('stream_malformed', { said: InvalidResponseDataError.isInstance(error) ? truncate(error.message) : undefined }, context.apiKey),
  });
}

/** The answer started, then the connection dropped or the stream ended before its finish. */
export function cutStreamError(error: unknown, context: ProviderErrorContext): ModelError {
  return new ModelError('bad_stream', scrubSecret(`The answer from ${context.baseUrl} stopped in the middle (the connection dropped or the stream ended early). Use Continue to pick up where it stopped.`, context.apiKey), {
    cause: error,
    ...detailOf('stream_cut', { baseUrl: context.baseUrl }, context.apiKey),
  });
}

async function isReachable(context: ProviderErrorContext): Promise<boolean> {
  const fetchImplementation = context.fetch ?? globalThis.fetch;
  try {
    // An opaque response proves a server answered; CORS cannot block it because nothing of it is readable.
    await fetchImplementation(context.baseUrl, { mode: 'no-cors', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

function appOrigin(): string {
  return globalThis.location?.origin ?? "this app's origin";
}

/** Ollama's default port is 11434; a host named after it is the other common tell. */
function looksLikeOllama(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return url.port === '11434' || url.hostname.includes('ollama');
  } catch {
    return false;
  }
}

function isLoopback(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
  } catch {
    return false;
  }
}

function providerMessage(error: APICallError): string {
  return error.message || (error.responseBody ?? '');
}

function truncate(text: string): string {
  return text.length > PROVIDER_MESSAGE_LIMIT ? `${text.slice(0, PROVIDER_MESSAGE_LIMIT)}…` : text;
}

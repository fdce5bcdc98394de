import type { ModelError } from '../../core/run/model';
import type { ConnectionTestResult } from '../../schema/protocol';
import type { Profile } from '../../schema/records';
import { errorText, fetchFailureError, httpStatusError, isAbortError, scrubSecret, type ProviderErrorContext } from './errors';
import { missingSettings, PROVIDER_CODE } from './provider-kinds';

const TEST_TIMEOUT_MS = 15_000;

/**
 * Checks a profile the way the app will use it: GET `${baseUrl}/models` with its kind's headers, from this
 * page. Lists the model ids on success; on failure says what to fix (key rejected, CORS, unreachable…). The key never
 * appears in the message.
 */
export async function testConnection(profile: Profile, options: { fetch?: typeof fetch } = {}): Promise<ConnectionTestResult> {
  const code = PROVIDER_CODE[profile.kind];
  if (code.noConnection) return { ok: true, ...code.noConnection };
  const missing = missingSettings(profile).filter((item) => item !== 'a model name');
  if (missing.length > 0) return { ok: false, reason: 'missing_settings', message: `Fill in ${missing.join(' and ')} first.` };

  const baseUrl = profile.baseUrl.replace(/\/+$/, '');
  const context: ProviderErrorContext = {
    baseUrl,
    apiKey: profile.apiKey,
    model: profile.model,
    ...(code.corsHeaders ? { requestHeaders: code.corsHeaders } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await fetchImplementation(`${baseUrl}/models`, {
      method: 'GET',
      headers: code.headers?.(profile) ?? {},
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    });
  } catch (error) {
    if (isAbortError(error)) return { ok: false, reason: 'timeout', params: { seconds: TEST_TIMEOUT_MS / 1000 }, message: scrubSecret(`${baseUrl} did not answer within ${TEST_TIMEOUT_MS / 1000} s.`, profile.apiKey) };
    return failure(await fetchFailureError(error, context));
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const error = httpStatusError(response.status, response.headers, errorText(text), context);
    // Listing models is a different endpoint from chatting: a 404 here says nothing about the model name.
    if (error.code === 'not_found') {
      return { ok: false, reason: 'models_not_found', message: scrubSecret(`${baseUrl}/models was not found (HTTP 404). Check the base URL: OpenAI-compatible servers usually end in /v1, Anthropic's is https://api.anthropic.com/v1.`, profile.apiKey) };
    }
    return failure(error);
  }
  const models = modelIds(await response.json().catch(() => undefined));
  if (models === undefined) {
    return { ok: false, reason: 'not_a_model_list', message: scrubSecret(`${baseUrl}/models answered, but not with a model list. Check the base URL.`, profile.apiKey) };
  }
  const listed = profile.model === '' || models.includes(profile.model);
  const summary = `Connected. ${models.length} model${models.length === 1 ? '' : 's'} available.`;
  const message = listed ? summary : `${summary} The model "${profile.model}" is not among them: check its name.`;
  return { ok: true, reason: listed ? 'connected' : 'connected_model_missing', params: { count: models.length, model: profile.model }, message: scrubSecret(message, profile.apiKey), models };
}

function failure(error: ModelError): ConnectionTestResult {
  const params = {
    ...(error.status !== undefined ? { status: error.status } : {}),
    // A 429's Retry-After, so Settings can say when to try again (it has no Continue to offer).
    ...(error.retryAfterMs !== undefined ? { retryAfterSeconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)) } : {}),
  };
  return {
    ok: false,
    reason: error.code,
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...(error.detail ? { detail: error.detail } : {}),
    message: error.code === 'auth' ? `The key was rejected. ${error.message}` : error.message,
  };
}

/** The ids of an OpenAI-shaped or Anthropic-shaped list (`{ data: [{ id }] }`); undefined for anything else. */
function modelIds(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((entry) => (typeof (entry as { id?: unknown })?.id === 'string' ? [(entry as { id: string }).id] : []));
}


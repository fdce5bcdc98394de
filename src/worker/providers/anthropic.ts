import { createAnthropic } from '@ai-sdk/anthropic';
import type { Provider, ProviderBuildOptions } from '../../core/run/model';
import type { Profile } from '../../schema/records';
import { createAiSdkModel, withoutUserAgent } from './ai-sdk-model';

/** Anthropic's Messages API: without this header it refuses calls made from a browser page. */
const ANTHROPIC_BROWSER_HEADERS = { 'anthropic-dangerous-direct-browser-access': 'true' } as const;

/**
 * A Model for Anthropic's Messages API at `${baseUrl}/messages` (baseUrl like https://api.anthropic.com/v1).
 * The key goes as `x-api-key` to `profile.baseUrl` and nowhere else.
 */
export function createAnthropicModel(profile: Profile, options: ProviderBuildOptions = {}): Provider {
  const provider = createAnthropic({
    baseURL: profile.baseUrl,
    apiKey: profile.apiKey,
    headers: { ...ANTHROPIC_BROWSER_HEADERS },
    fetch: withoutUserAgent(options.fetch),
  });
  return createAiSdkModel(provider(profile.model), {
    errorContext: {
      baseUrl: profile.baseUrl,
      apiKey: profile.apiKey,
      model: profile.model,
      ...(options.corsHeaders ? { requestHeaders: options.corsHeaders } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
}

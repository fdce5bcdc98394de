import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Model } from '../../core/model';
import type { Profile } from '../../schema/records';
import { createAiSdkModel, withoutUserAgent, type ProviderBuildOptions } from './ai-sdk-model';
import { CORS_REQUEST_HEADERS } from './errors';

/**
 * A Model for any OpenAI-compatible chat-completions server (OpenAI, OpenRouter, Groq, Ollama, LM Studio,
 * llama.cpp server, vLLM): `${baseUrl}/chat/completions`, streamed, usage requested. The key (optional: local
 * servers need none) goes as a Bearer token to `profile.baseUrl` and nowhere else.
 */
export function createOpenAiCompatibleModel(profile: Profile, options: ProviderBuildOptions = {}): Model {
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: profile.baseUrl,
    ...(profile.apiKey ? { apiKey: profile.apiKey } : {}),
    includeUsage: true,
    fetch: withoutUserAgent(options.fetch),
  });
  return createAiSdkModel(provider.chatModel(profile.model), {
    errorContext: {
      baseUrl: profile.baseUrl,
      apiKey: profile.apiKey,
      model: profile.model,
      requestHeaders: CORS_REQUEST_HEADERS['openai-compatible'],
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
    ...(options.system ? { system: options.system } : {}),
    continuation: 'instruct',
  });
}

import { ModelError, type Model } from '../../core/model';
import type { Profile } from '../../schema/records';
import { createScriptedModel, parseScript } from './scripted';
import type { ProviderBuildOptions } from './ai-sdk-model';

/**
 * The Model a profile describes. The scripted model is built from `scriptText` (a bad script is a ModelError
 * 'config' naming the problem). Real providers are loaded on first use, so the worker's start never waits for the
 * AI SDK; an incomplete profile (no base URL, no model, no Anthropic key) is a ModelError 'config'.
 */
export async function createModelForProfile(profile: Profile, scriptText: string, options: ProviderBuildOptions = {}): Promise<Model> {
  if (profile.kind === 'scripted') {
    const parsed = parseScript(scriptText);
    if (!parsed.ok) throw new ModelError('config', `The scripted model cannot run (fix it in Settings → Script): ${parsed.error}`, { detail: { key: 'script_invalid', params: { said: parsed.error } } });
    return createScriptedModel(parsed.script, { ...(options.system !== undefined ? { system: options.system } : {}), profile });
  }
  if (profile.kind === 'in-browser') {
    if (profile.model.trim() === '') throw new ModelError('config', `The profile "${profile.name}" has no model yet. Open Settings, choose a model and press Download.`, { detail: { key: 'in_browser_no_model', params: { name: profile.name } } });
    const { createInBrowserModel } = await import('./in-browser/in-browser-model');
    return createInBrowserModel(profile, options.system !== undefined ? { system: options.system } : {});
  }
  const missing = missingSettings(profile);
  if (missing.length > 0) {
    throw new ModelError('config', `The profile "${profile.name}" needs ${missing.join(' and ')} before it can be used. Open Settings to fill ${missing.length > 1 ? 'them' : 'it'} in.`, {
      detail: { key: 'profile_incomplete', params: { name: profile.name } },
    });
  }
  if (profile.kind === 'anthropic') {
    const { createAnthropicModel } = await import('./anthropic');
    return createAnthropicModel(profile, options);
  }
  const { createOpenAiCompatibleModel } = await import('./openai-compatible');
  return createOpenAiCompatibleModel(profile, options);
}


/** What a non-scripted profile still lacks, in words for the user. */
export function missingSettings(profile: Profile): string[] {
  const missing: string[] = [];
  if (profile.baseUrl.trim() === '') missing.push('a base URL');
  else if (!isHttpUrl(profile.baseUrl)) missing.push('a base URL starting with http:// or https://');
  if (profile.model.trim() === '') missing.push('a model name');
  // Anthropic always wants a key; OpenAI-compatible local servers (Ollama, LM Studio…) do not.
  if (profile.kind === 'anthropic' && profile.apiKey.trim() === '') missing.push('an API key');
  return missing;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

import { ModelError, type ProviderFactory } from '../../core/run/model';
import type { ConnectionTestResult } from '../../schema/protocol';
import { providerKind } from '../../schema/provider-kinds';
import type { Profile, ProviderKind } from '../../schema/records';
import { createScriptedProvider } from './scripted';

/**
 * The worker's part of a provider kind (what the app shows of it is `schema/provider-kinds.ts`): its code, loaded on
 * first use so the worker's start never waits for it, and what its requests send. The registry, the connection test
 * and the errors read it. See docs/architecture.md, "Providers".
 */
interface ProviderKindCode {
  /** Fetches the kind's code: what builds its Provider for a profile. */
  load(): Promise<ProviderFactory>;
  /** Its code is large (the in-browser engine): fetched when first used, not ahead of the first request. */
  large?: boolean;
  /** Why a profile cannot run yet, said before its code is loaded (a connection's settings are checked for every kind). */
  unready?(profile: Profile): ModelError | undefined;
  /** The headers a call sends (the connection test sends them to `/models`), besides `content-type`. */
  headers?(profile: Profile): Record<string, string>;
  /** The request headers a browser's CORS preflight asks the server to allow, named in the CORS advice. */
  corsHeaders?: readonly string[];
  /** The connection test's answer for a kind with no server to reach. */
  noConnection?: Pick<ConnectionTestResult, 'reason' | 'message'>;
}

export const PROVIDER_CODE: Record<ProviderKind, ProviderKindCode> = {
  // In this module's own chunk: the Built-in demo answers the first message without another fetch.
  scripted: {
    load: async () => createScriptedProvider,
    noConnection: { reason: 'scripted', message: 'The scripted model runs in this app and needs no connection.' },
  },
  'openai-compatible': {
    load: async () => (await import('./openai-compatible')).createOpenAiCompatibleModel,
    headers: (profile): Record<string, string> => (profile.apiKey ? { authorization: `Bearer ${profile.apiKey}` } : {}),
    corsHeaders: ['authorization', 'content-type'],
  },
  anthropic: {
    load: async () => (await import('./anthropic')).createAnthropicModel,
    // What the SDK sends (anthropic.ts), written out so a connection test does not load it.
    headers: (profile) => ({ 'x-api-key': profile.apiKey, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' }),
    corsHeaders: ['x-api-key', 'anthropic-version', 'anthropic-dangerous-direct-browser-access', 'content-type'],
  },
  'in-browser': {
    load: async () => (await import('./in-browser/in-browser-model')).createInBrowserModel,
    large: true,
    unready: (profile) =>
      profile.model.trim() === ''
        ? new ModelError('config', `The profile "${profile.name}" has no model yet. Open Settings, choose a model and press Download.`, { detail: { key: 'in_browser_no_model', params: { name: profile.name } } })
        : undefined,
    noConnection: { reason: 'in_browser', message: 'The in-browser model runs on this device and needs no connection once it is downloaded.' },
  },
};

/** What a profile of a `connection` kind still lacks, in words for the user; nothing for the other kinds. */
export function missingSettings(profile: Profile): string[] {
  const kind = providerKind(profile.kind);
  if (kind.form !== 'connection') return [];
  const missing: string[] = [];
  if (profile.baseUrl.trim() === '') missing.push('a base URL');
  else if (!isHttpUrl(profile.baseUrl)) missing.push('a base URL starting with http:// or https://');
  if (profile.model.trim() === '') missing.push('a model name');
  if (kind.keyRequired && profile.apiKey.trim() === '') missing.push('an API key');
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

/**
 * Fetches the code a request with a profile of `kind` will need, on its own: not after the registry, whose chunk waits
 * its turn behind whatever else the worker is evaluating (the full host, as a new conversation starts).
 */
export function prepareProviderCode(kind: ProviderKind): Promise<unknown> | undefined {
  const code = PROVIDER_CODE[kind];
  return code.large ? undefined : code.load();
}

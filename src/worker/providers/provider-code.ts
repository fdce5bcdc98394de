import type { ProviderKind } from '../../schema/records';

/**
 * Fetches the code `createModelForProfile` imports for a provider of `kind`, on its own: not after the registry, whose
 * chunk waits its turn behind whatever else the worker is evaluating (the full host, as a new conversation starts).
 * The in-browser model is left to load when used (its engine is large); the scripted one is in the registry itself.
 */
export function loadProviderCode(kind: ProviderKind): Promise<unknown> | undefined {
  if (kind === 'anthropic') return import('./anthropic');
  if (kind === 'openai-compatible') return import('./openai-compatible');
  return undefined;
}

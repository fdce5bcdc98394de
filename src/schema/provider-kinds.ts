/**
 * What the app shows and checks of each provider kind, declared once: the profile form, Settings' list, the settings
 * store and the image rule read it (the worker's part — headers, the connection test, its code — is beside it in
 * `worker/providers/provider-kinds.ts`). Imports nothing: the UI's first load reads it. See docs/architecture.md,
 * "Providers".
 */
interface ProviderKindInfo {
  /** The kind's name in Settings: a key of the UI's strings. */
  labelKey: string;
  /**
   * What the profile form asks for: `connection` — a base URL, a key and a model (with "Test connection"); `script` —
   * the Built-in demo's script (built in: never saved as a profile); `local-model` — a model stored on this device.
   */
  form: 'connection' | 'script' | 'local-model';
  /** A connection's example base URL, shown in the empty field. */
  baseUrlHint?: string;
  /** A connection that cannot be used without a key (local OpenAI-compatible servers need none). */
  keyRequired?: boolean;
  /** Whether its models take images: always, as the profile says (the form offers the choice), or never. */
  images: 'always' | 'choice' | 'never';
}

export const PROVIDER_KINDS = {
  scripted: { labelKey: 'provider.scripted', form: 'script', images: 'always' },
  'openai-compatible': { labelKey: 'provider.openai', form: 'connection', baseUrlHint: 'https://api.openai.com/v1', images: 'choice' },
  anthropic: { labelKey: 'provider.anthropic', form: 'connection', baseUrlHint: 'https://api.anthropic.com/v1', keyRequired: true, images: 'choice' },
  'in-browser': { labelKey: 'provider.in-browser', form: 'local-model', images: 'never' },
} as const satisfies Record<string, ProviderKindInfo>;

type ProviderKindName = keyof typeof PROVIDER_KINDS;

/** The kinds in the order the profile form offers them. */
export const PROVIDER_KIND_NAMES = Object.keys(PROVIDER_KINDS) as [ProviderKindName, ...ProviderKindName[]];

/** A kind's facts, typed for a reader that handles every kind alike. */
export function providerKind(kind: ProviderKindName): ProviderKindInfo {
  return PROVIDER_KINDS[kind];
}

/** Whether a profile's model takes images: by its kind (the in-browser engine reads text only), else its own setting. */
export function profileAcceptsImages(profile: { kind: ProviderKindName; acceptsImages?: boolean | undefined }): boolean {
  const images = PROVIDER_KINDS[profile.kind].images;
  return images === 'never' ? false : images === 'always' || (profile.acceptsImages ?? true);
}

import type { Conversation, Profile } from '../../schema/records';

/**
 * The system message a request carries: Parley's own prompt, then the user's instructions — the conversation's own
 * ("Instructions for this conversation") in place of its profile's. Undefined when there is neither.
 */
export function systemFor(base: string | undefined, profile: Pick<Profile, 'instructions'>, conversation: Pick<Conversation, 'instructions'>): string | undefined {
  const own = conversation.instructions?.trim() || profile.instructions?.trim();
  return [base, own].filter((part): part is string => !!part).join('\n\n') || undefined;
}

/** The profile's sampling settings that are set; absent ones are left to the provider. */
export function samplingOf(profile: Pick<Profile, 'temperature' | 'maxOutputTokens'>): { temperature?: number; maxOutputTokens?: number } {
  return {
    ...(profile.temperature !== undefined ? { temperature: profile.temperature } : {}),
    ...(profile.maxOutputTokens !== undefined ? { maxOutputTokens: profile.maxOutputTokens } : {}),
  };
}

import { SCRIPTED_PROFILE_ID } from '../../schema/limits';
import type { Profile, ProfileView, Settings } from '../../schema/records';
import { DEMO_SCRIPT, demoLanguage, scriptIn } from '../providers/demo-script';
import type { StoredConfig } from './stored-config';

/** The built-in profile: the scripted model, always there, needing no key. */
export const SCRIPTED_PROFILE: Profile = { id: SCRIPTED_PROFILE_ID, name: 'Built-in demo', kind: 'scripted', baseUrl: '', apiKey: '', model: '' };

export const DEFAULT_SETTINGS: Settings = { script: DEMO_SCRIPT, defaultProfileId: SCRIPTED_PROFILE_ID };

/**
 * Settings and model profiles, as read. API keys live here and leave only through `getProfile`, to the provider. Reads
 * come from the worker's StoredConfig (no IndexedDB read per model step); every write (settings-writes.ts, loaded with
 * the first) bumps its generation and drops the copy.
 */
export class SettingsStore {
  constructor(
    readonly config: StoredConfig,
    readonly newId: () => string,
  ) {}

  async getSettings(): Promise<Settings> {
    return settingsFrom((await this.config.read()).settings);
  }

  /** A profile with its key, for the provider only. */
  async getProfile(profileId: string): Promise<Profile | undefined> {
    const config = await this.config.read();
    if (profileId === SCRIPTED_PROFILE_ID) return scriptedProfile(config.settings);
    return config.profiles.get(profileId);
  }

  /** The profile a conversation talks to: its own (`profileId`), else the default; undefined when it was deleted. */
  async profileFor(profileId: string | undefined): Promise<Profile | undefined> {
    return this.getProfile(profileId ?? (await this.getSettings()).defaultProfileId);
  }

  async listProfiles(): Promise<ProfileView[]> {
    const config = await this.config.read();
    const stored = [...config.profiles.values()]; // in key order, as getAll read them
    return [scriptedProfile(config.settings), ...stored].map(toProfileView);
  }
}

/**
 * The settings a stored record (raw, possibly partial or absent) means: the defaults for whatever it lacks, and the
 * built-in demo script in the user's language (see scriptIn).
 */
export async function settingsFrom(stored: unknown): Promise<Settings> {
  const settings: Settings = { ...DEFAULT_SETTINGS, ...(stored as Partial<Settings> | undefined) };
  return { ...settings, script: await scriptIn(settings.script, demoLanguage(settings.locale)) };
}

/** The default profile a stored settings record (raw, possibly partial or absent) names; synchronous, for a transaction. */
export function defaultProfileIdFrom(stored: unknown): string {
  return { ...DEFAULT_SETTINGS, ...(stored as Partial<Settings> | undefined) }.defaultProfileId;
}

/** The Built-in demo as a profile: its instructions are kept in the settings record (see Settings.demoInstructions). */
function scriptedProfile(stored: unknown): Profile {
  const instructions = (stored as Partial<Settings> | undefined)?.demoInstructions?.trim();
  return instructions ? { ...SCRIPTED_PROFILE, instructions } : SCRIPTED_PROFILE;
}

/** What the UI may see of a profile: everything but the key, which is masked. */
export function toProfileView(profile: Profile): ProfileView {
  const { apiKey, ...rest } = profile;
  return { ...rest, apiKeyMasked: maskKey(apiKey) };
}

export function maskKey(apiKey: string): string {
  if (!apiKey) return '';
  return apiKey.length <= 8 ? '••••' : `••••${apiKey.slice(-4)}`;
}

/** The origin of a URL; undefined when it is not one. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

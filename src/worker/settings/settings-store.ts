import { WireError } from '../../schema/wire-error';
import type { ProfileInput } from '../../schema/commands';
import { SCRIPTED_PROFILE_ID } from '../../schema/limits';
import type { Profile, ProfileView, Settings } from '../../schema/records';
import type { OfferedProfile } from '../../schema/protocol';
import { profilesToRestore } from '../../core/profile-names';
import { DEMO_SCRIPT, demoLanguage, scriptIn } from '../providers/demo-script';
import { SETTINGS_KEY, type StoredConfig } from './stored-config';

/** What saving the built-in profile (or another of a built-in kind, see `checkProfileKind`) is refused with. */
export function builtInRefusal(): WireError {
  return new WireError({ code: 'invalid_command', reason: 'scripted_profile_builtin', message: 'The scripted profile is built in; edit its script instead.', field: 'profile.kind' });
}

/** The built-in profile: the scripted model, always there, needing no key. */
const SCRIPTED_PROFILE: Profile = { id: SCRIPTED_PROFILE_ID, name: 'Built-in demo', kind: 'scripted', baseUrl: '', apiKey: '', model: '' };

const DEFAULT_SETTINGS: Settings = { script: DEMO_SCRIPT, defaultProfileId: SCRIPTED_PROFILE_ID };

/**
 * Settings and model profiles. API keys live here and leave only through `getProfile`, to the provider. Reads come from
 * the worker's StoredConfig (no IndexedDB read per model step); every write bumps its generation and drops the copy.
 */
export class SettingsStore {
  constructor(
    private readonly config: StoredConfig,
    private readonly newId: () => string,
  ) {}

  async getSettings(): Promise<Settings> {
    return settingsFrom((await this.config.read()).settings);
  }

  async updateSettings(update: Partial<Settings>): Promise<Settings> {
    const written = await this.config.write(['settings', 'profiles'], async (transaction) => {
      const stored = (await transaction.objectStore('settings').get(SETTINGS_KEY)) as Partial<Settings> | undefined;
      if (update.defaultProfileId && update.defaultProfileId !== SCRIPTED_PROFILE_ID && !(await transaction.objectStore('profiles').get(update.defaultProfileId))) {
        throw new WireError({ code: 'not_found', reason: 'profile_gone', message: 'That model profile does not exist.', field: 'defaultProfileId' });
      }
      const next: Settings = { ...DEFAULT_SETTINGS, ...stored, ...definedOnly(update) };
      await transaction.objectStore('settings').put(next, SETTINGS_KEY);
      return next;
    });
    // After the transaction: the demo in another language may be a file to fetch.
    return settingsFrom(written);
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

  /**
   * The full profile (with key) that an edit describes, as things stand in this worker's copy: for a connection test,
   * which stores nothing. Saving resolves it against the stored profile instead (see saveProfile).
   */
  async resolveInput(input: ProfileInput): Promise<Profile> {
    return this.profileFrom(input, input.id ? await this.getProfile(input.id) : undefined);
  }

  /**
   * Saves a new profile or an edit. The edited profile is read in the write's own transaction, not from the copy, which
   * another tab may have made stale: an edit of a profile deleted meanwhile is refused (`profile_gone`), never brought
   * back with its old key, and a key left empty keeps the key stored now.
   */
  async saveProfile(input: ProfileInput): Promise<ProfileView> {
    if (input.id === SCRIPTED_PROFILE_ID) throw builtInRefusal();
    if (input.baseUrl && !/^https?:\/\//i.test(input.baseUrl)) {
      throw new WireError({ code: 'invalid_command', reason: 'base_url_scheme', message: 'The base URL must start with http:// or https://', field: 'profile.baseUrl' });
    }
    const profile = await this.config.write(['profiles', 'settings'], async (transaction) => {
      const existing = input.id ? await transaction.objectStore('profiles').get(input.id) : undefined;
      if (input.id && !existing) throw new WireError({ code: 'not_found', reason: 'profile_gone', message: 'That model profile no longer exists.', field: 'profile.id' });
      const resolved = this.profileFrom(input, existing);
      await transaction.objectStore('profiles').put(resolved);
      return resolved;
    });
    return toProfileView(profile);
  }

  /**
   * The profile an edit of `existing` (none for a new one) describes. An absent key keeps the existing one only while the
   * provider kind and the base URL's origin stay the same: a key must never follow an edited URL to another server.
   */
  private profileFrom(input: ProfileInput, existing: Profile | undefined): Profile {
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    const sameServer = existing !== undefined && existing.kind === input.kind && originOf(existing.baseUrl) === originOf(baseUrl);
    return {
      id: input.id ?? this.newId(),
      name: input.name,
      kind: input.kind,
      baseUrl,
      apiKey: input.apiKey ?? (sameServer ? existing.apiKey : ''),
      model: input.model,
      // A synced profile whose key was typed on another device asks for it here until one is typed (or it points elsewhere).
      ...(!input.apiKey && sameServer && existing.keyNeeded && !existing.apiKey ? { keyNeeded: true } : {}),
      ...(input.instructions ? { instructions: input.instructions } : {}),
      ...(input.temperature != null ? { temperature: input.temperature } : {}),
      ...(input.maxOutputTokens != null ? { maxOutputTokens: input.maxOutputTokens } : {}),
      // Absent in the form's input: the stored choice stays.
      ...((input.acceptsImages ?? existing?.acceptsImages) !== undefined ? { acceptsImages: input.acceptsImages ?? existing?.acceptsImages } : {}),
    };
  }

  /**
   * Adds the profiles of a backup that are not here (by id, so imported conversations keep theirs), without keys: the
   * user gives each its key again. Profiles already here are left as they are; a name taken here is suffixed ("Work (2)").
   * Returns what was added, as the offer said (see profilesToRestore).
   */
  async restoreProfiles(profiles: ReadonlyArray<Omit<Profile, 'apiKey'>>): Promise<OfferedProfile[]> {
    return this.config.write(['profiles', 'settings'], async (transaction) => {
      const here = [SCRIPTED_PROFILE, ...((await transaction.objectStore('profiles').getAll()) as Profile[])];
      const added = profilesToRestore(here, profiles);
      for (const { profile, offered } of added) await transaction.objectStore('profiles').put({ ...profile, name: offered.name, apiKey: '' });
      return added.map(({ offered }) => offered);
    });
  }

  async deleteProfile(profileId: string): Promise<void> {
    if (profileId === SCRIPTED_PROFILE_ID) throw new WireError({ code: 'invalid_command', reason: 'scripted_profile_undeletable', message: 'The scripted profile is built in and cannot be deleted.' });
    await this.config.write(['profiles', 'settings'], async (transaction) => {
      await transaction.objectStore('profiles').delete(profileId);
      const settings = (await transaction.objectStore('settings').get(SETTINGS_KEY)) as Partial<Settings> | undefined;
      if (settings?.defaultProfileId === profileId) {
        await transaction.objectStore('settings').put({ ...DEFAULT_SETTINGS, ...settings, defaultProfileId: SCRIPTED_PROFILE_ID }, SETTINGS_KEY);
      }
    });
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
function toProfileView(profile: Profile): ProfileView {
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

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

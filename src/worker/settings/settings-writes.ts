import { WireError } from '../../schema/wire-error';
import type { ProfileInput } from '../../schema/commands';
import { SCRIPTED_PROFILE_ID } from '../../schema/limits';
import type { Profile, ProfileView, Settings } from '../../schema/records';
import type { OfferedProfile } from '../../schema/protocol';
import { profilesToRestore } from '../../core/profile-names';
import { DEFAULT_SETTINGS, originOf, SCRIPTED_PROFILE, settingsFrom, toProfileView, type SettingsStore } from './settings-store';
import { SETTINGS_KEY } from './stored-config';

// Writes of the settings and profiles (SettingsStore reads them): loaded with Settings' changes, sync's and an import's,
// never with a first conversation, which writes none.

/** What saving the built-in profile (or another of a built-in kind, see `checkProfileKind`) is refused with. */
export function builtInRefusal(): WireError {
  return new WireError({ code: 'invalid_command', reason: 'scripted_profile_builtin', message: 'The scripted profile is built in; edit its script instead.', field: 'profile.kind' });
}

export async function updateSettings(settings: SettingsStore, update: Partial<Settings>): Promise<Settings> {
  const written = await settings.config.write(['settings', 'profiles'], async (transaction) => {
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

/**
 * The full profile (with key) that an edit describes, as things stand in this worker's copy: for a connection test,
 * which stores nothing. Saving resolves it against the stored profile instead (see saveProfile).
 */
export async function resolveInput(settings: SettingsStore, input: ProfileInput): Promise<Profile> {
  return profileFrom(settings, input, input.id ? await settings.getProfile(input.id) : undefined);
}

/**
 * Saves a new profile or an edit. The edited profile is read in the write's own transaction, not from the copy, which
 * another tab may have made stale: an edit of a profile deleted meanwhile is refused (`profile_gone`), never brought
 * back with its old key, and a key left empty keeps the key stored now.
 */
export async function saveProfile(settings: SettingsStore, input: ProfileInput): Promise<ProfileView> {
  if (input.id === SCRIPTED_PROFILE_ID) throw builtInRefusal();
  if (input.baseUrl && !/^https?:\/\//i.test(input.baseUrl)) {
    throw new WireError({ code: 'invalid_command', reason: 'base_url_scheme', message: 'The base URL must start with http:// or https://', field: 'profile.baseUrl' });
  }
  const profile = await settings.config.write(['profiles', 'settings'], async (transaction) => {
    const existing = input.id ? await transaction.objectStore('profiles').get(input.id) : undefined;
    if (input.id && !existing) throw new WireError({ code: 'not_found', reason: 'profile_gone', message: 'That model profile no longer exists.', field: 'profile.id' });
    const resolved = profileFrom(settings, input, existing);
    await transaction.objectStore('profiles').put(resolved);
    return resolved;
  });
  return toProfileView(profile);
}

/**
 * The profile an edit of `existing` (none for a new one) describes. An absent key keeps the existing one only while the
 * provider kind and the base URL's origin stay the same: a key must never follow an edited URL to another server.
 */
function profileFrom(settings: SettingsStore, input: ProfileInput, existing: Profile | undefined): Profile {
  const baseUrl = input.baseUrl.replace(/\/+$/, '');
  const sameServer = existing !== undefined && existing.kind === input.kind && originOf(existing.baseUrl) === originOf(baseUrl);
  return {
    id: input.id ?? settings.newId(),
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
export async function restoreProfiles(settings: SettingsStore, profiles: ReadonlyArray<Omit<Profile, 'apiKey'>>): Promise<OfferedProfile[]> {
  return settings.config.write(['profiles', 'settings'], async (transaction) => {
    const here = [SCRIPTED_PROFILE, ...((await transaction.objectStore('profiles').getAll()) as Profile[])];
    const added = profilesToRestore(here, profiles);
    for (const { profile, offered } of added) await transaction.objectStore('profiles').put({ ...profile, name: offered.name, apiKey: '' });
    return added.map(({ offered }) => offered);
  });
}

export async function deleteProfile(settings: SettingsStore, profileId: string): Promise<void> {
  if (profileId === SCRIPTED_PROFILE_ID) throw new WireError({ code: 'invalid_command', reason: 'scripted_profile_undeletable', message: 'The scripted profile is built in and cannot be deleted.' });
  await settings.config.write(['profiles', 'settings'], async (transaction) => {
    await transaction.objectStore('profiles').delete(profileId);
    const stored = (await transaction.objectStore('settings').get(SETTINGS_KEY)) as Partial<Settings> | undefined;
    if (stored?.defaultProfileId === profileId) {
      await transaction.objectStore('settings').put({ ...DEFAULT_SETTINGS, ...stored, defaultProfileId: SCRIPTED_PROFILE_ID }, SETTINGS_KEY);
    }
  });
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

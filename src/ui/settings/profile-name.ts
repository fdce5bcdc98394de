import { SCRIPTED_PROFILE_ID } from '../../schema/limits';
import { t } from '../i18n/i18n';

/** A profile's name as shown: the built-in demo's is Parley's own words, so it is in the UI's language; others as named. */
export function profileName(profile: { id: string; name: string }): string {
  return profile.id === SCRIPTED_PROFILE_ID ? t('profile.scriptedName') : profile.name;
}

import { afterEach, describe, expect, it } from 'vitest';
import { SCRIPTED_PROFILE_ID } from '../../src/schema/limits';
import { setLocale } from '../../src/ui/i18n/i18n';
import { profileName } from '../../src/ui/settings/profile-name';

afterEach(() => setLocale('en'));

// The built-in profile's name is Parley's own words, so it follows the UI's language; a user's is kept.
describe('profile names', () => {
  it('shows the built-in demo in the UI’s language and a user’s profile as named', async () => {
    const builtIn = { id: SCRIPTED_PROFILE_ID, name: 'Built-in demo' };
    expect(profileName(builtIn)).toBe('Built-in demo');
    await setLocale('zh-CN');
    expect(profileName(builtIn)).toBe('内置演示');
    expect(profileName({ id: 'p1', name: 'My Ollama' })).toBe('My Ollama');
  });
});

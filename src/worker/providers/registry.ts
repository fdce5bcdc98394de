import { ModelError, type Model, type ProviderBuildOptions } from '../../core/run/model';
import { promptedModel } from '../../core/prompt/prompt';
import type { Profile } from '../../schema/records';
import { missingSettings, PROVIDER_CODE } from './provider-kinds';

/**
 * The Model a profile describes: its kind's code (loaded on first use, see PROVIDER_CODE) behind the prompt core builds
 * for each step (`promptedModel`: Parley's prompt `system`, the instructions, the history). An incomplete profile (no
 * base URL, no model, no key its kind needs; an in-browser one without its model) is a ModelError 'config', said
 * before its code is loaded, and so is one its kind's code cannot run (a broken script).
 */
export async function createModelForProfile(profile: Profile, scriptText: string, options: Pick<ProviderBuildOptions, 'fetch'> & { system?: string } = {}): Promise<Model> {
  const missing = missingSettings(profile);
  if (missing.length > 0) {
    throw new ModelError('config', `The profile "${profile.name}" needs ${missing.join(' and ')} before it can be used. Open Settings to fill ${missing.length > 1 ? 'them' : 'it'} in.`, {
      detail: { key: 'profile_incomplete', params: { name: profile.name } },
    });
  }
  const code = PROVIDER_CODE[profile.kind];
  const unready = code.unready?.(profile);
  if (unready) throw unready;
  const { system, ...build } = options;
  const create = await code.load();
  return promptedModel(await create(profile, { ...build, script: scriptText, ...(code.corsHeaders ? { corsHeaders: code.corsHeaders } : {}) }), { system, profile });
}


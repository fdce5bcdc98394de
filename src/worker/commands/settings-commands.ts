import type { ProfileInput } from '../../schema/commands';
import { providerKind } from '../../schema/provider-kinds';
import type { Settings } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import { DEMO_SCRIPT } from '../providers/demo-script';
import { builtInRefusal, deleteProfile, resolveInput, saveProfile, updateSettings } from '../settings/settings-writes';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/**
 * Changes to the settings and model profiles: every change is told to the UI as a `settings-changed` or
 * `profiles-changed` event. Loaded with the first of them (`command-handler.ts`, `SETTINGS_CHANGES`); their reads are
 * the host's own.
 */
export function createSettingsHandlers(deps: CommandHandlerDeps) {
  const { settings } = deps;
  return {
    'settings.restoreScript': async () => {
      const next: Settings = await updateSettings(settings, { script: DEMO_SCRIPT });
      deps.emit({ type: 'settings-changed', settings: next });
      return next;
    },
    'settings.update': async (command) => {
      const { type: _type, ...update } = command;
      if (update.script !== undefined) {
        // The parser loads with a script to check, not with the host (see scripted.ts).
        const parsed = (await import('../../schema/script')).parseScript(update.script);
        if (!parsed.ok) throw new WireError({ code: 'invalid_command', reason: 'script_invalid', message: parsed.error, field: 'script' });
      }
      const next: Settings = await updateSettings(settings, update);
      deps.emit({ type: 'settings-changed', settings: next });
      return next;
    },
    'profiles.save': async (command) => {
      checkProfileKind(command.profile);
      const saved = await saveProfile(settings, command.profile);
      deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      return saved;
    },
    'profiles.delete': async (command) => {
      await deleteProfile(settings, command.profileId);
      deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      deps.emit({ type: 'settings-changed', settings: await settings.getSettings() });
      return { profileId: command.profileId };
    },
    'profiles.test': async (command) => deps.testConnection(await resolveInput(settings, command.profile)),
  } satisfies Partial<Handlers>;
}

/**
 * What a profile's kind asks of it before it is saved (`PROVIDER_KINDS`): a built-in kind is never saved as a profile;
 * a connection names its model (an in-browser profile may wait for its download).
 */
function checkProfileKind(input: ProfileInput): void {
  const { form } = providerKind(input.kind);
  if (form === 'script') throw builtInRefusal();
  if (form === 'connection' && input.model === '') {
    throw new WireError({ code: 'invalid_command', reason: 'profile_no_model', message: 'Choose the model this profile talks to (Test connection lists the server’s models).', field: 'profile.model' });
  }
}

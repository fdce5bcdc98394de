import type { Settings } from '../../schema/records';
import { parseScript } from '../../schema/script';
import { WireError } from '../../schema/wire-error';
import { DEMO_SCRIPT } from '../providers/demo-script';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/** The settings and model profiles: every change is told to the UI as a `settings-changed` or `profiles-changed` event. */
export function createSettingsHandlers(deps: CommandHandlerDeps) {
  const { settings } = deps;
  return {
    'settings.get': () => settings.getSettings(),
    'settings.restoreScript': async () => {
      const next: Settings = await settings.updateSettings({ script: DEMO_SCRIPT });
      deps.emit({ type: 'settings-changed', settings: next });
      return next;
    },
    'settings.update': async (command) => {
      const { type: _type, ...update } = command;
      if (update.script !== undefined) {
        const parsed = parseScript(update.script);
        if (!parsed.ok) throw new WireError({ code: 'invalid_command', reason: 'script_invalid', message: parsed.error, field: 'script' });
      }
      const next: Settings = await settings.updateSettings(update);
      deps.emit({ type: 'settings-changed', settings: next });
      return next;
    },
    'profiles.list': () => settings.listProfiles(),
    'profiles.save': async (command) => {
      const saved = await settings.saveProfile(command.profile);
      deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      return saved;
    },
    'profiles.delete': async (command) => {
      await settings.deleteProfile(command.profileId);
      deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      deps.emit({ type: 'settings-changed', settings: await settings.getSettings() });
      return { profileId: command.profileId };
    },
    'profiles.test': async (command) => deps.testConnection(await settings.resolveInput(command.profile)),
  } satisfies Partial<Handlers>;
}

import { SCRIPTED_PROFILE_ID } from '../../../schema/limits';
import type { Profile } from '../../../schema/records';
import type { SyncedProfile, SyncedSettingKind, SyncedSettingValue } from '../../../schema/sync/synced-settings';
import type { McpServers } from '../../mcp/lazy-mcp-hub';
import { readList } from '../../mcp/mcp-server-store';
import { originOf, type SettingsStore } from '../../settings/settings-store';
import { deleteProfile } from '../../settings/settings-writes';
import type { ConfigSnapshot, StoredConfig } from '../../settings/stored-config';

/** What syncing settings needs of this device: its stored settings, and the stores another device's version goes to. */
export interface SyncedSettingsHost {
  config: StoredConfig;
  settings: SettingsStore;
  mcp: McpServers;
  /** Profiles changed by another device: this tab's page and the other tabs are told. */
  profilesChanged(): Promise<void>;
}

/** How one kind of setting syncs (docs/architecture.md, "Settings that sync"). */
interface SyncedSetting<K extends SyncedSettingKind> {
  /** What of this device's settings of this kind syncs, by item id: never a secret, never what stays per device. */
  local(config: ConfigSnapshot): Map<string, SyncedSettingValue<K>>;
  /** Stores another device's version of an item (undefined: deleted there), keeping what stays on this device. */
  apply(host: SyncedSettingsHost, id: string, value: SyncedSettingValue<K> | undefined): Promise<void>;
}

/**
 * Every setting that syncs, by kind (its travelling shape is in schema/sync/synced-settings.ts). Language, theme, the
 * default profile, the script and tool permissions are not here: they stay on each device.
 */
export const SYNCED_SETTINGS: { [K in SyncedSettingKind]: SyncedSetting<K> } = {
  profile: {
    local: (config) =>
      new Map(
        [...config.profiles.values()].map(({ id, apiKey, keyNeeded, ...fields }) => [id, { ...fields, keyed: apiKey !== '' || keyNeeded === true }]),
      ),
    apply: async (host, id, value) => {
      if (value) await putSyncedProfile(host.config, id, value);
      else await deleteProfile(host.settings, id);
      await host.profilesChanged();
    },
  },
  'mcp-server': {
    local: (config) => new Map(readList(config.mcpServers).map((server) => [server.id, { name: server.name, url: server.url }])),
    apply: (host, id, value) => host.mcp.applySynced(id, value),
  },
};

/**
 * Stores another device's version of a profile. The key stays per device: this device's own is kept while the provider
 * kind and the base URL's origin stay the same, as for an edit here (settings-writes.ts, saveProfile); without one, a profile
 * that has a key where it was written asks for one here on first use (`keyNeeded`). Here rather than in SettingsStore,
 * which the first screen loads: only sync needs it.
 */
async function putSyncedProfile(config: StoredConfig, profileId: string, value: SyncedProfile): Promise<void> {
  if (profileId === SCRIPTED_PROFILE_ID || value.kind === 'scripted') return;
  await config.write(['profiles', 'settings'], async (transaction) => {
    const existing = (await transaction.objectStore('profiles').get(profileId)) as Profile | undefined;
    const { keyed, ...fields } = value;
    const sameServer = existing !== undefined && existing.kind === fields.kind && originOf(existing.baseUrl) === originOf(fields.baseUrl);
    const apiKey = sameServer ? existing.apiKey : '';
    await transaction.objectStore('profiles').put({ ...fields, id: profileId, apiKey, ...(keyed && !apiKey ? { keyNeeded: true } : {}) });
  });
}

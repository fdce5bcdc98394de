import { parseScript } from '../../schema/script';
import type { ExportedSettings } from '../../schema/records';
import type { SettingsOffer } from '../../schema/protocol';
import type { McpServers } from '../mcp/lazy-mcp-hub';
import { normalizeServerName } from '../mcp/tool-names';
import { profilesToRestore } from '../../core/profile-names';
import type { SettingsStore } from '../settings/settings-store';
import { restoreProfiles, updateSettings } from '../settings/settings-writes';
import { providerKind } from '../../schema/provider-kinds';

// Settings as part of the backup: exported without secrets, and added on import only once the user agreed.

/** This browser's settings for an export: profiles without keys, MCP servers without tokens or permissions, the script. */
export async function exportSettings(settings: SettingsStore, hub: McpServers): Promise<ExportedSettings> {
  const [stored, profiles, servers] = await Promise.all([settings.getSettings(), settings.listProfiles(), hub.listServers()]);
  return {
    script: stored.script,
    profiles: profiles.filter((profile) => providerKind(profile.kind).form !== 'script').map(({ apiKeyMasked: _masked, ...profile }) => profile),
    mcpServers: servers.map((server) => ({ name: server.name, url: server.url })),
  };
}

/** What a backup's settings would add here: profiles not here (a taken name suffixed), servers whose name is not taken, a different script. */
export async function offerOf(backup: ExportedSettings | undefined, settings: SettingsStore, hub: McpServers): Promise<SettingsOffer> {
  if (!backup) return { profiles: [], mcpServers: 0, script: false };
  const [stored, profiles, servers] = await Promise.all([settings.getSettings(), settings.listProfiles(), hub.listServers()]);
  const serverNames = new Set(servers.map((server) => normalizeServerName(server.name)));
  return {
    profiles: profilesToRestore(profiles, backup.profiles ?? []).map(({ offered }) => offered),
    mcpServers: new Set((backup.mcpServers ?? []).map((server) => normalizeServerName(server.name)).filter((name) => !serverNames.has(name))).size,
    script: backup.script !== undefined && backup.script !== stored.script && parseScript(backup.script).ok,
  };
}

/** Whether an offer holds anything. */
export function offersAnything(offer: SettingsOffer): boolean {
  return offer.profiles.length > 0 || offer.mcpServers > 0 || offer.script;
}

/**
 * Adds what `offerOf` offered: the profiles (without keys), the servers (without tokens; every tool asks first), the
 * script (replacing this one). Returns what was added.
 */
export async function addSettings(backup: ExportedSettings, settings: SettingsStore, hub: McpServers): Promise<SettingsOffer> {
  const offer = await offerOf(backup, settings, hub);
  const added: SettingsOffer = { profiles: [], mcpServers: 0, script: false };
  if (offer.profiles.length > 0) added.profiles = await restoreProfiles(settings, backup.profiles ?? []);
  if (offer.mcpServers > 0) {
    const taken = new Set((await hub.listServers()).map((server) => normalizeServerName(server.name)));
    for (const server of backup.mcpServers ?? []) {
      if (taken.has(normalizeServerName(server.name))) continue;
      // A server whose URL this browser refuses (not http or https) is left out; the others are added.
      const saved = await hub.saveServer({ name: server.name, url: server.url }).catch(() => undefined);
      if (!saved) continue;
      taken.add(normalizeServerName(server.name));
      added.mcpServers += 1;
    }
  }
  if (offer.script && backup.script !== undefined) {
    await updateSettings(settings, { script: backup.script });
    added.script = true;
  }
  return added;
}

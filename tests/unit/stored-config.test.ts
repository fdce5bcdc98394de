import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import type { Model } from '../../src/core/run/model';
import type { Message, Profile } from '../../src/schema/records';
import { createModelForProfile } from '../../src/worker/providers/registry';
import { openParleyDatabase } from '../../src/worker/store/database';
import { SETTINGS_KEY, StoredConfig } from '../../src/worker/settings/stored-config';
import { SettingsStore } from '../../src/worker/settings/settings-store';
import { deleteProfile, saveProfile, updateSettings } from '../../src/worker/settings/settings-writes';

const lastText = (messages: Message[]) => messages.at(-1)!.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');

async function reply(tab: TestTab, conversationId: string, text: string): Promise<string> {
  await tab.send({ type: 'message.send', conversationId, text });
  await waitForRunState(tab, conversationId, ['idle', 'error']);
  return lastText((await tab.send({ type: 'conversation.open', conversationId })).messages);
}

/** Two tabs of one browser; `there`'s broadcasts reach `here` only when `wired`. */
async function twoTabs(options: { wired: boolean; createModel?: (profile: Profile, script: string) => Promise<Model> }) {
  const databaseName = uniqueDatabaseName();
  const locks = memoryLocks();
  const here = await openTab({ databaseName, locks, ...(options.createModel ? { createModel: options.createModel } : {}) });
  const there = await openTab({ databaseName, locks, peers: options.wired ? [here] : [] });
  return { here, there };
}

describe("each worker's copy of settings, profiles and MCP servers", () => {
  it('a run step uses the script another tab saved (its hint drops the copy)', async () => {
    const { here, there } = await twoTabs({ wired: true });
    await here.send({ type: 'settings.update', script: script([{ text: 'old one' }, { text: 'old two' }]) });
    const { id } = await here.send({ type: 'conversation.create' });
    expect(await reply(here, id, 'hello')).toBe('old one'); // the copy is loaded now

    await there.send({ type: 'settings.update', script: script([{ text: 'new one' }, { text: 'new two' }]) });
    expect(await reply(here, id, 'again')).toBe('new two');
    expect((await here.send({ type: 'settings.get' })).script).toContain('new two');
  });

  it("a tab running older code, which bumps no generation: only its hint drops the copy, and the next step uses what it saved", async () => {
    const databaseName = uniqueDatabaseName();
    const here = await openTab({ databaseName, locks: memoryLocks() });
    await here.send({ type: 'settings.update', script: script([{ text: 'old one' }, { text: 'old two' }, { text: 'old three' }]) });
    const { id } = await here.send({ type: 'conversation.create' });
    expect(await reply(here, id, 'hello')).toBe('old one'); // the copy is loaded now

    // The older build's write: the settings record alone, straight into IndexedDB.
    const older = await openParleyDatabase(databaseName);
    const stored = (await older.get('settings', SETTINGS_KEY)) as object;
    await older.put('settings', { ...stored, script: script([{ text: 'new one' }, { text: 'new two' }, { text: 'new three' }]) }, SETTINGS_KEY);
    older.close();
    expect(await reply(here, id, 'again')).toBe('old two'); // no generation to notice it by

    await here.host.peerHint({ kind: 'settings' });
    expect(await reply(here, id, 'once more')).toBe('new three');
  });

  it('a run step uses the profile as another tab edited it, and stops when another tab deleted it', async () => {
    const models: string[] = [];
    const createModel = async (profile: Profile, scriptText: string): Promise<Model> => {
      models.push(profile.model);
      return createModelForProfile({ ...profile, kind: 'scripted' }, scriptText);
    };
    const { here, there } = await twoTabs({ wired: true, createModel });
    await here.send({ type: 'settings.update', script: script([{ text: 'one' }, { text: 'two' }, { text: 'three' }]) });
    const profile = { name: 'Local', kind: 'openai-compatible' as const, baseUrl: 'http://localhost:11434/v1', model: 'model-a' };
    const saved = await here.send({ type: 'profiles.save', profile });
    const { id } = await here.send({ type: 'conversation.create' });
    await here.send({ type: 'conversation.setProfile', conversationId: id, profileId: saved.id });
    expect(await reply(here, id, 'hello')).toBe('one');

    await there.send({ type: 'profiles.save', profile: { ...profile, id: saved.id, model: 'model-b' } });
    expect(await reply(here, id, 'again')).toBe('two');
    expect(models).toEqual(['model-a', 'model-b']);

    await there.send({ type: 'profiles.delete', profileId: saved.id });
    await reply(here, id, 'once more');
    expect((await here.host.store.getConversation(id))?.runError?.code).toBe('profile_gone');
    expect(models).toEqual(['model-a', 'model-b']);
  });

  it('reads from IndexedDB once, then only after a write of its own', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const config = new StoredConfig(database);
    const settings = new SettingsStore(config, () => 'id');
    const first = await config.read();
    expect(await config.read()).toBe(first);
    await updateSettings(settings, { script: script([{ text: 'changed' }]) });
    const second = await config.read();
    expect(second).not.toBe(first);
    expect(second.generation).toBe(first.generation + 1);
    expect((await settings.getSettings()).script).toContain('changed');
    database.close();
  });

  it('does not keep a load that began before an invalidation, nor a copy older than a generation seen since', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const config = new StoredConfig(database);
    const elsewhere = new SettingsStore(new StoredConfig(database), () => 'id');
    const loading = config.read();
    config.invalidate();
    const loaded = await loading;
    expect(await config.read()).not.toBe(loaded);

    const before = await config.read();
    await updateSettings(elsewhere, { script: script([{ text: 'from another tab' }]) });
    expect(await config.read()).toBe(before); // nothing told this copy yet
    config.observe(before.generation); // a generation it already has: kept
    expect(await config.read()).toBe(before);
    config.observe(before.generation + 1);
    const after = await config.read();
    expect(after.generation).toBe(before.generation + 1);
    expect(JSON.stringify(after.settings)).toContain('from another tab');
    database.close();
  });

  it('saving a profile edit reads the stored profile in its own write, not the copy another tab made stale', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const here = new SettingsStore(new StoredConfig(database), () => 'p1');
    const there = new SettingsStore(new StoredConfig(database), () => 'unused'); // its changes send no hint here
    const input = { name: 'Remote', kind: 'openai-compatible' as const, baseUrl: 'https://api.example.test/v1', model: 'model-a' };
    const saved = await saveProfile(here, { ...input, apiKey: 'sk-old-key-0001' });
    expect((await here.listProfiles()).map((profile) => profile.id)).toEqual(['scripted', saved.id]); // the copy holds it

    // The other tab changes the key; an edit here with the key left empty keeps the key stored now, not the copy's.
    await saveProfile(there, { ...input, id: saved.id, apiKey: 'sk-new-key-0002' });
    await saveProfile(here, { ...input, id: saved.id, model: 'model-b' });
    expect(await there.getProfile(saved.id)).toMatchObject({ apiKey: 'sk-new-key-0002', model: 'model-b' });

    // The other tab deletes it; an edit here does not bring it back, with or without its old key.
    await deleteProfile(there, saved.id);
    await expect(saveProfile(here, { ...input, id: saved.id, model: 'model-c' })).rejects.toMatchObject({ code: 'not_found', reason: 'profile_gone' });
    expect(await new SettingsStore(new StoredConfig(database), () => 'unused').getProfile(saved.id)).toBeUndefined();
    database.close();
  });

  it('a new conversation is pinned to the default profile stored now, whatever the copy says', async () => {
    const { here, there } = await twoTabs({ wired: false });
    const profile = { name: 'Remote', kind: 'openai-compatible' as const, baseUrl: 'https://api.example.test/v1', model: 'm' };
    const first = await here.send({ type: 'profiles.save', profile });
    const second = await here.send({ type: 'profiles.save', profile: { ...profile, name: 'Other' } });
    await here.send({ type: 'settings.update', defaultProfileId: first.id });
    expect((await here.send({ type: 'conversation.create' })).profileId).toBe(first.id); // the copy is loaded now

    await there.send({ type: 'settings.update', defaultProfileId: second.id }); // the user chose another company
    expect((await here.send({ type: 'conversation.create', title: 'Next' })).profileId).toBe(second.id);
  });
});

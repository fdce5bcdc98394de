import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName } from './host-harness';

describe('settings in the backup', () => {
  it('an export carries profiles without keys, servers without tokens or permissions, and the script; an import asks, then adds them', async () => {
    const from = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const customScript = script([{ text: 'Mine.' }]);
    await from.send({ type: 'settings.update', script: customScript });
    const profile = await from.send({ type: 'profiles.save', profile: { name: 'Work', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-SECRET-KEY-1234', model: 'm', instructions: 'Be brief.' } });
    const server = await from.send({ type: 'mcp.save', server: { name: 'Files', url: 'http://127.0.0.1:9/mcp', token: 'TOKEN-SECRET' } });
    await from.send({ type: 'mcp.setPermission', serverId: server.id, toolName: 'mcp__files__write', permission: 'allow' });
    const { id } = await from.send({ type: 'conversation.create' });
    await from.send({ type: 'conversation.setProfile', conversationId: id, profileId: profile.id });
    const file = JSON.parse(JSON.stringify(await from.send({ type: 'conversation.export' })));
    const text = JSON.stringify(file);
    expect(text).not.toContain('SECRET');
    expect(text).not.toMatch(/"permissions"\s*:|"allow"/);
    expect(file.settings).toMatchObject({ script: customScript, profiles: [{ id: profile.id, name: 'Work', instructions: 'Be brief.' }], mcpServers: [{ name: 'Files', url: 'http://127.0.0.1:9/mcp' }] });
    from.close();

    const to = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    // Asked first: nothing is written until the user chose.
    expect(await to.send({ type: 'conversation.import', data: file, settings: 'ask' })).toEqual({ imported: 0, skipped: 0, repairs: [], settingsOffered: { profiles: [{ name: 'Work', baseUrl: 'http://127.0.0.1:9/v1' }], mcpServers: 1, script: true } });
    expect(await to.send({ type: 'conversation.list' })).toEqual([]);
    expect(await to.send({ type: 'conversation.import', data: file, settings: 'add' })).toMatchObject({ imported: 1, settingsAdded: { profiles: [{ name: 'Work', baseUrl: 'http://127.0.0.1:9/v1' }], mcpServers: 1, script: true } });
    const profiles = await to.send({ type: 'profiles.list' });
    expect(profiles.find((candidate) => candidate.id === profile.id)).toMatchObject({ name: 'Work', apiKeyMasked: '', instructions: 'Be brief.' });
    // The conversation kept its profile, which arrived first.
    const [conversation] = await to.send({ type: 'conversation.list' });
    expect(conversation?.profileId).toBe(profile.id);
    const [restored] = await to.send({ type: 'mcp.list' });
    expect(restored).toMatchObject({ name: 'Files', url: 'http://127.0.0.1:9/mcp' });
    expect(JSON.stringify(restored)).not.toMatch(/TOKEN|"allow"/);
    expect((await to.send({ type: 'settings.get' })).script).toBe(customScript);
    // Nothing more is offered the second time.
    expect(await to.send({ type: 'conversation.import', data: file, settings: 'ask' })).toEqual({ imported: 0, skipped: 1, repairs: [] });
    to.close();
  });

  it('a profile whose name is taken here is offered and added under a suffixed name, with its address, and the original is untouched', async () => {
    const from = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await from.send({ type: 'profiles.save', profile: { name: 'MyOpenAI', kind: 'openai-compatible', baseUrl: 'https://attacker.example/v1', apiKey: 'k', model: 'm' } });
    const file = JSON.parse(JSON.stringify(await from.send({ type: 'conversation.export' })));
    from.close();
    const to = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const mine = await to.send({ type: 'profiles.save', profile: { name: 'MyOpenAI', kind: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-mine', model: 'gpt' } });
    const offered = { name: 'MyOpenAI (2)', baseUrl: 'https://attacker.example/v1', nameInFile: 'MyOpenAI' };
    expect((await to.send({ type: 'conversation.import', data: file, settings: 'ask' })).settingsOffered?.profiles).toEqual([offered]);
    expect((await to.send({ type: 'conversation.import', data: file, settings: 'add' })).settingsAdded?.profiles).toEqual([offered]);
    const profiles = await to.send({ type: 'profiles.list' });
    expect(profiles.map((profile) => profile.name).sort()).toEqual(['Built-in demo', 'MyOpenAI', 'MyOpenAI (2)']);
    expect(profiles.find((profile) => profile.id === mine.id)).toMatchObject({ name: 'MyOpenAI', baseUrl: 'https://api.openai.com/v1' });
    to.close();
  });

  it('"Conversations only" adds no setting, and a conversation naming an unknown profile falls back to the default', async () => {
    const from = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const profile = await from.send({ type: 'profiles.save', profile: { name: 'Work', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' } });
    const { id } = await from.send({ type: 'conversation.create' });
    await from.send({ type: 'conversation.setProfile', conversationId: id, profileId: profile.id });
    const file = JSON.parse(JSON.stringify(await from.send({ type: 'conversation.export' })));
    from.close();
    const to = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    expect(await to.send({ type: 'conversation.import', data: file, settings: 'skip' })).toEqual({ imported: 1, skipped: 0, repairs: [] });
    expect((await to.send({ type: 'profiles.list' })).map((candidate) => candidate.name)).toEqual(['Built-in demo']);
    const [conversation] = await to.send({ type: 'conversation.list' });
    expect(conversation?.profileId).toBeUndefined();
    to.close();
  });
});

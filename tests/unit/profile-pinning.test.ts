import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import type { Model } from '../../src/core/run/model';
import type { Profile } from '../../src/schema/records';
import { createModelForProfile } from '../../src/worker/providers/registry';

/** Records which profile each model call went to; the scripted one still answers. */
function recordingModels(used: string[]) {
  return async (profile: Profile, scriptText: string): Promise<Model> => {
    used.push(profile.id);
    return createModelForProfile({ ...profile, kind: 'scripted' }, scriptText);
  };
}

describe('each conversation keeps its model profile', () => {
  it('a profile saved later does not become the default, and never receives an older conversation', async () => {
    const used: string[] = [];
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: recordingModels(used) });
    await tab.send({ type: 'settings.update', script: script([{ text: 'one' }, { text: 'two' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(tab, id, ['idle']);

    const cloud = await tab.send({ type: 'profiles.save', profile: { name: 'Cloud', kind: 'openai-compatible', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-test-123456789', model: 'm' } });
    expect((await tab.send({ type: 'settings.get' })).defaultProfileId).toBe('scripted');
    // Even if the user then makes it the default, the old conversation stays where it was.
    await tab.send({ type: 'settings.update', defaultProfileId: cloud.id });
    await tab.send({ type: 'message.send', conversationId: id, text: 'again' });
    await waitForRunState(tab, id, ['idle']);
    expect(used).toEqual(['scripted', 'scripted']);
  });

  it('pins a conversation stored before pinning to the profile it was using, at its next message', async () => {
    const used: string[] = [];
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: recordingModels(used) });
    await tab.send({ type: 'settings.update', script: script([{ text: 'one' }, { text: 'two' }]) });
    const created = await tab.send({ type: 'conversation.create' });
    const { profileId: _pinned, ...legacy } = created;
    await tab.host.store.write({ conversation: legacy });
    await tab.send({ type: 'message.send', conversationId: created.id, text: 'hello' });
    await waitForRunState(tab, created.id, ['idle']);
    expect((await tab.host.store.getConversation(created.id))?.profileId).toBe('scripted');
  });

  it('asks which profile to use when its profile was deleted, instead of picking one', async () => {
    const used: string[] = [];
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: recordingModels(used) });
    await tab.send({ type: 'settings.update', script: script([{ text: 'one' }]) });
    const local = await tab.send({ type: 'profiles.save', profile: { name: 'Local', kind: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'm' } });
    await tab.send({ type: 'settings.update', defaultProfileId: local.id });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'profiles.delete', profileId: local.id });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(tab, id, ['error']);
    const conversation = await tab.host.store.getConversation(id);
    expect(conversation?.runError?.message).toContain('model profile was deleted');
    expect(conversation?.runError?.code).toBe('profile_gone'); // what the UI words it from
    expect(used).toEqual([]); // nothing went to any provider
  });
});

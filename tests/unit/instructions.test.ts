import { describe, expect, it } from 'vitest';
import { chatCompletionsBody } from '../../src/worker/providers/chat-completions/chat-completions-request';
import { samplingOf, systemFor } from '../../src/core/prompt/prompt';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { messageText } from '../../src/core/run/message-text';

describe('instructions and sampling', () => {
  it('the conversation’s instructions take the place of the profile’s, after Parley’s own prompt', () => {
    expect(systemFor('Base.', { instructions: 'Profile.' }, {})).toBe('Base.\n\nProfile.');
    expect(systemFor('Base.', { instructions: 'Profile.' }, { instructions: 'Conversation.' })).toBe('Base.\n\nConversation.');
    expect(systemFor('Base.', { instructions: 'Profile.' }, { instructions: '  ' })).toBe('Base.\n\nProfile.');
    expect(systemFor(undefined, {}, {})).toBeUndefined();
  });

  it('only the sampling settings that are set reach a Chat Completions body', () => {
    expect(chatCompletionsBody('m', [], [], undefined, samplingOf({}))).not.toHaveProperty('temperature');
    expect(chatCompletionsBody('m', [], [], 'Sys', samplingOf({ temperature: 0, maxOutputTokens: 10 }))).toMatchObject({ temperature: 0, max_tokens: 10, messages: [{ role: 'system', content: 'Sys' }] });
  });

  it('a remote profile without a model is refused in words; an in-browser one may wait for its download', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await expect(tab.send({ type: 'profiles.save', profile: { name: 'No model', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: '' } })).rejects.toMatchObject({ code: 'invalid_command', reason: 'profile_no_model', field: 'profile.model' });
    await expect(tab.send({ type: 'profiles.save', profile: { name: 'Local', kind: 'in-browser', baseUrl: '', model: '' } })).resolves.toMatchObject({ kind: 'in-browser', model: '' });
    // The scripted kind is the Built-in demo's: never saved as a profile of its own.
    await expect(tab.send({ type: 'profiles.save', profile: { name: 'Another demo', kind: 'scripted', baseUrl: '', model: '' } })).rejects.toMatchObject({ code: 'invalid_command', reason: 'scripted_profile_builtin' });
    const saved = await tab.send({ type: 'profiles.save', profile: { name: 'Tuned', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1', model: 'claude-x', instructions: 'Be kind.', temperature: 0.5, maxOutputTokens: 100 } });
    expect(saved).toMatchObject({ instructions: 'Be kind.', temperature: 0.5, maxOutputTokens: 100 });
    // Cleared fields go back to the provider's defaults.
    const cleared = await tab.send({ type: 'profiles.save', profile: { id: saved.id, name: 'Tuned', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1', model: 'claude-x', temperature: null, maxOutputTokens: null } });
    expect(cleared).not.toHaveProperty('temperature');
    expect(cleared).not.toHaveProperty('instructions');
    tab.close();
  });

  it('a conversation keeps its own instructions, and clearing them gives the profile’s back', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const { id } = await tab.send({ type: 'conversation.create' });
    expect(await tab.send({ type: 'conversation.setInstructions', conversationId: id, instructions: 'Short answers.' })).toMatchObject({ instructions: 'Short answers.' });
    expect(await tab.send({ type: 'conversation.setInstructions', conversationId: id, instructions: '' })).not.toHaveProperty('instructions');
    tab.close();
  });

  it('the Built-in demo takes instructions too: {{systemPrompt}} shows them, and a conversation’s own take their place', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const echo = { text: 'System: {{systemPrompt}}' };
    await tab.send({ type: 'settings.update', script: script([echo, echo]), demoInstructions: '  Answer like a pirate.  ' });
    expect((await tab.send({ type: 'profiles.list' })).find((profile) => profile.id === 'scripted')).toMatchObject({ instructions: 'Answer like a pirate.' });
    const { id } = await tab.send({ type: 'conversation.create' });
    const lastReply = async () => messageText((await tab.host.store.listMessages(id)).at(-1)!);
    await tab.send({ type: 'message.send', conversationId: id, text: 'Hi' });
    await waitForRunState(tab, id, ['idle']);
    expect(await lastReply()).toBe('System: Answer like a pirate.');
    await tab.send({ type: 'conversation.setInstructions', conversationId: id, instructions: 'Be brief.' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'Again' });
    await waitForRunState(tab, id, ['idle']);
    expect(await lastReply()).toBe('System: Be brief.');
    await tab.send({ type: 'settings.update', demoInstructions: '' });
    expect((await tab.send({ type: 'profiles.list' })).find((profile) => profile.id === 'scripted')).not.toHaveProperty('instructions');
    tab.close();
  });
});

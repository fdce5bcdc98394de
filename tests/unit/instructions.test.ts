import { describe, expect, it } from 'vitest';
import { chatCompletionsBody } from '../../src/worker/providers/chat-completions-request';
import { samplingOf, systemFor } from '../../src/worker/providers/instructions';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';

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
});

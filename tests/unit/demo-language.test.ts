import { describe, expect, it } from 'vitest';
import { DEMO_SCRIPTS, scriptIn } from '../../src/worker/providers/demo-script';
import { memoryLocks, openTab, uniqueDatabaseName, waitForRunState } from './host-harness';

// A zh-CN user meets the built-in demo in Chinese; a script the user wrote is never rewritten.
describe('the built-in demo script', () => {
  it('follows the language while it is the demo, and stays as written once edited', () => {
    expect(scriptIn(undefined, 'zh-CN')).toBe(DEMO_SCRIPTS['zh-CN']);
    expect(scriptIn(DEMO_SCRIPTS.en, 'zh-CN')).toBe(DEMO_SCRIPTS['zh-CN']);
    expect(scriptIn(DEMO_SCRIPTS['zh-CN'], 'en')).toBe(DEMO_SCRIPTS.en);
    const edited = DEMO_SCRIPTS.en.replace('Hi!', 'Hello!');
    expect(scriptIn(edited, 'zh-CN')).toBe(edited);
    expect(DEMO_SCRIPTS['zh-CN']).toContain('你好！');
  });

  it('replies in Chinese once the language is 简体中文, even after the English demo was saved', { timeout: 30_000 }, async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: DEMO_SCRIPTS.en });
    const settings = await tab.send({ type: 'settings.update', locale: 'zh-CN' });
    expect(settings.script).toBe(DEMO_SCRIPTS['zh-CN']);
    expect((await tab.send({ type: 'settings.get' })).script).toBe(DEMO_SCRIPTS['zh-CN']);
    const conversation = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: conversation.id, text: '周末' });
    await waitForRunState(tab, conversation.id, ['awaiting_input'], 20_000);
    const stored = JSON.stringify((await tab.send({ type: 'conversation.open', conversationId: conversation.id })).messages);
    expect(stored).toContain('我是 Parley 的内置');
    expect(stored).toContain('你想过一个什么样的周末？');
    tab.close();
  });
});

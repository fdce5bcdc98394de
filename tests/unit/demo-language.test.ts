import { describe, expect, it } from 'vitest';
import { DEMO_SCRIPT, demoScriptIn, scriptIn } from '../../src/worker/providers/demo-script';
import { memoryLocks, openTab, uniqueDatabaseName, waitForRunState } from './host-harness';

// A zh-CN user meets the built-in demo in Chinese; a script the user wrote is never rewritten.
describe('the built-in demo script', () => {
  it('follows the language while it is the demo, and stays as written once edited', async () => {
    const zh = await demoScriptIn('zh-CN');
    expect(await scriptIn(undefined, 'zh-CN')).toBe(zh);
    expect(await scriptIn(DEMO_SCRIPT, 'zh-CN')).toBe(zh);
    expect(await scriptIn(zh, 'en')).toBe(DEMO_SCRIPT);
    expect(await scriptIn(zh, 'zh-CN')).toBe(zh);
    const edited = DEMO_SCRIPT.replace('Hi!', 'Hello!');
    expect(await scriptIn(edited, 'zh-CN')).toBe(edited);
    expect(await scriptIn(edited, 'en')).toBe(edited);
    expect(zh).toContain('你好！');
  });

  it('replies in Chinese once the language is 简体中文, even after the English demo was saved', { timeout: 30_000 }, async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: DEMO_SCRIPT });
    const settings = await tab.send({ type: 'settings.update', locale: 'zh-CN' });
    const zh = await demoScriptIn('zh-CN');
    expect(settings.script).toBe(zh);
    expect((await tab.send({ type: 'settings.get' })).script).toBe(zh);
    const conversation = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: conversation.id, text: '周末' });
    await waitForRunState(tab, conversation.id, ['awaiting_input'], 20_000);
    const stored = JSON.stringify((await tab.send({ type: 'conversation.open', conversationId: conversation.id })).messages);
    expect(stored).toContain('我是 Parley 的内置');
    expect(stored).toContain('你想过一个什么样的周末？');
    tab.close();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { answerCommand, memoryLocks, openTab, uniqueDatabaseName, waitForRunState } from './host-harness';

// Whether Settings' command inputs were evaluated: they load with the first Settings command, never for a first conversation.
const evaluated = vi.hoisted(() => new Set<string>());

vi.mock('../../src/schema/settings-command-inputs', async (importOriginal) => {
  evaluated.add('settings-command-inputs');
  return importOriginal();
});

describe("Settings' command inputs", () => {
  it('are not loaded by a first conversation with the Built-in demo, its question and its answer; a malformed Settings command is refused with its field and rule', { timeout: 60_000 }, async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    try {
      const { id: conversationId } = await tab.send({ type: 'conversation.create' });
      await tab.send({ type: 'message.send', conversationId, text: 'Plan my weekend' });
      await waitForRunState(tab, conversationId, ['awaiting_input'], 30_000);
      const asked = (await tab.send({ type: 'conversation.open', conversationId })).messages.at(-1)!;
      const request = asked.blocks.find((block) => block.type === 'request')!;
      const target = { conversationId, messageId: asked.id, toolCallId: request.toolCallId };
      await tab.send(answerCommand(target, [{ selected: ['Slow and cozy'] }, { selected: ['Nature'] }, { selected: ['Just me'] }]));
      await waitForRunState(tab, conversationId, ['idle'], 30_000);
      expect([...evaluated]).toEqual([]);

      await expect(tab.send({ type: 'settings.update', locale: 'fr' as 'en' })).rejects.toMatchObject({
        code: 'invalid_command',
        field: 'locale',
        message: 'Malformed command (locale): Invalid option: expected one of "en"|"zh-CN"',
      });
      expect([...evaluated]).toEqual(['settings-command-inputs']);
      expect((await tab.send({ type: 'settings.update', locale: 'zh-CN' })).locale).toBe('zh-CN');
    } finally {
      tab.close();
    }
  });
});

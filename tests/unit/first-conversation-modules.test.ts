import { describe, expect, it, vi } from 'vitest';
import { answerCommand, memoryLocks, openTab, uniqueDatabaseName, waitForRunState } from './host-harness';

// Which of these modules were evaluated: Settings' command inputs load with the first Settings command, the writes of
// settings and profiles with the first change, the demo in 简体中文 with that language, the storing of other devices'
// records with sync, the script's parser with a script the user wrote, versions' handlers and changes with the first,
// Find in conversation's count with the first search, the upgrade of older blocks with an upgrade that has messages to
// rewrite, a storage failure's words with the first, the in-browser model's handlers with the first of them, another
// tab's hints' reader with the first hint; an English first conversation (a new database) in one tab needs none.
const evaluated = vi.hoisted(() => new Set<string>());

vi.mock('../../src/schema/settings-command-inputs', async (importOriginal) => {
  evaluated.add('settings-command-inputs');
  return importOriginal();
});

vi.mock('../../src/worker/store/remote-records', async (importOriginal) => {
  evaluated.add('remote-records');
  return importOriginal();
});

vi.mock('../../src/worker/settings/settings-writes', async (importOriginal) => {
  evaluated.add('settings-writes');
  return importOriginal();
});

vi.mock('../../src/schema/messages/upgrade-blocks', async (importOriginal) => {
  evaluated.add('upgrade-blocks');
  return importOriginal();
});

vi.mock('../../src/worker/store/storage-error', async (importOriginal) => {
  evaluated.add('storage-error');
  return importOriginal();
});

vi.mock('../../src/worker/commands/version-commands', async (importOriginal) => {
  evaluated.add('version-commands');
  return importOriginal();
});

vi.mock('../../src/core/branch-edits', async (importOriginal) => {
  evaluated.add('branch-edits');
  return importOriginal();
});

vi.mock('../../src/worker/store/message-search', async (importOriginal) => {
  evaluated.add('message-search');
  return importOriginal();
});

vi.mock('../../src/schema/script', async (importOriginal) => {
  evaluated.add('script-parser');
  return importOriginal();
});

vi.mock('../../src/worker/commands/local-model-commands', async (importOriginal) => {
  evaluated.add('local-model-commands');
  return importOriginal();
});

vi.mock('../../src/worker/tabs/peer-hints', async (importOriginal) => {
  evaluated.add('peer-hints');
  return importOriginal();
});

vi.mock('../../src/worker/providers/demo-script-zh', async (importOriginal) => {
  evaluated.add('demo-script-zh');
  return importOriginal();
});

describe('the worker code an English first conversation does not load', () => {
  it("loads neither Settings' command inputs, their writes, the Chinese demo, other devices' records, the script's parser, versions' changes, Find's count, the upgrade of older blocks, a storage failure's words, the in-browser model's handlers nor another tab's hints' reader for the Built-in demo's reply, its question and its answer; a malformed Settings command is refused with its field and rule", { timeout: 60_000 }, async () => {
    vi.stubGlobal('navigator', { ...globalThis.navigator, language: 'en-GB' });
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
      expect((await tab.send({ type: 'conversation.search', conversationId, query: 'weekend' })).matches.length).toBeGreaterThan(0);
      await tab.send({ type: 'message.regenerate', conversationId, messageId: asked.id });
      await waitForRunState(tab, conversationId, ['awaiting_input', 'idle'], 30_000);
      expect([...evaluated]).toEqual(['message-search', 'version-commands', 'branch-edits']);
      evaluated.clear();

      await expect(tab.send({ type: 'settings.update', locale: 'fr' as 'en' })).rejects.toMatchObject({
        code: 'invalid_command',
        field: 'locale',
        message: 'Malformed command (locale): Invalid option: expected one of "en"|"zh-CN"',
      });
      expect([...evaluated]).toEqual(['settings-command-inputs']);
      const chinese = await tab.send({ type: 'settings.update', locale: 'zh-CN' });
      expect(chinese.script).toContain('你好！');
      expect([...evaluated]).toEqual(['settings-command-inputs', 'settings-writes', 'demo-script-zh']);
      await tab.send({ type: 'settings.update', script: '[{"text":"mine"}]' });
      expect([...evaluated]).toEqual(['settings-command-inputs', 'settings-writes', 'demo-script-zh', 'script-parser']);
      evaluated.clear();

      // Node has no Cache Storage for the model's files: the command may fail there, after its handler loaded.
      await tab.send({ type: 'localModel.storedBytes' }).catch(() => undefined);
      expect([...evaluated]).toEqual(['local-model-commands']);
      // Another tab's hint is read once its reader loads: the conversation it names reaches this tab's page.
      tab.events.length = 0;
      await tab.host.peerHint({ kind: 'conversation', conversationId, messageIds: [asked.id] });
      expect([...evaluated]).toEqual(['local-model-commands', 'peer-hints']);
      expect(tab.events.some((event) => event.type === 'message-upserted' && event.message.id === asked.id)).toBe(true);
    } finally {
      tab.close();
      vi.unstubAllGlobals();
    }
  });
});

import { describe, expect, it, vi } from 'vitest';
import { answerCommand, memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import type { Message } from '../../src/schema/records';

// How often the JSON Schema form checker's module was evaluated: once, the first time anything imports it. In the
// browser, that first import is a script fetched from the network.
const evaluated = vi.hoisted(() => ({ forms: 0 }));
vi.mock('../../src/core/requests/json-schema-form', async (importOriginal) => {
  evaluated.forms += 1;
  return importOriginal();
});

const ASK = { text: 'First:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Pick', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }] } }] };

describe('the code an answer loads before its compare-and-set', () => {
  it("a question answered with no MCP server used: the reply comes without the form checker's code, which only a live run's form needs", async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    try {
      await tab.send({ type: 'settings.update', script: script([ASK, { text: 'Got: {{lastToolResult}}' }]) });
      const { id: conversationId } = await tab.send({ type: 'conversation.create' });
      await tab.send({ type: 'message.send', conversationId, text: 'go' });
      await waitForRunState(tab, conversationId, ['awaiting_input']);
      const message: Message = (await tab.send({ type: 'conversation.open', conversationId })).messages.at(-1)!;
      const block = message.blocks.find((candidate) => candidate.type === 'request')!;
      if (block.type !== 'request') throw new Error('no request');

      await tab.send(answerCommand({ conversationId, messageId: message.id, toolCallId: block.toolCallId }, [{ selected: ['B'] }]));
      await waitForRunState(tab, conversationId, ['idle']);
      const { messages } = await tab.send({ type: 'conversation.open', conversationId });
      expect(messages.at(-1)!.blocks).toEqual([{ type: 'text', text: expect.stringContaining('"Which?"="B"') }]);
      expect(evaluated.forms).toBe(0);
    } finally {
      tab.close();
    }
  });
});

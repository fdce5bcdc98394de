import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message, Profile } from '../../src/schema/records';
import { memoryLocks, openTab, uniqueDatabaseName, waitForRunState } from './host-harness';

// When the tool definitions do not fit in a small in-browser model's context, they are left out and the
// model is told; the user is told too, by a notice stored on the reply (so a reload still shows it). The engine is one
// that refuses any request carrying tools as llama.cpp does when it is too long, and answers one without them.

const engine = { constrainToolCalls: false, contextTokens: 2048, toolsFit: false };
const calls: Array<{ tools: boolean; system: string }> = [];
vi.mock('../../src/worker/providers/in-browser/engine', () => ({
  loadEngine: async () => ({
    ...engine,
    wllama: {
      async createChatCompletion(options: { tools?: unknown[]; messages: Array<{ role: string; content: string }> }) {
        const withTools = (options.tools?.length ?? 0) > 0;
        calls.push({ tools: withTools, system: options.messages.find((message) => message.role === 'system')?.content ?? '' });
        if (withTools && !engine.toolsFit) {
          throw Object.assign(new Error('request (2602 tokens) exceeds the available context size (2048 tokens), try increasing it'), { type: 'exceed_context_size_error' });
        }
        return (async function* () {
          yield { choices: [{ delta: { content: 'A plain ' } }] };
          yield { choices: [{ delta: { content: 'answer.' } }] };
        })();
      },
    },
  }),
  holdEngine: () => () => undefined,
  unloadEngineIfIdle: async () => undefined,
}));
vi.mock('../../src/worker/providers/in-browser/model-store', () => ({
  LocalModelStoreError: class extends Error {},
  recordSpeed: async () => undefined,
}));

const { createInBrowserModel } = await import('../../src/worker/providers/in-browser/in-browser-model');
const { promptedModel } = await import('../../src/core/prompt/prompt');

const profile: Profile = { id: 'small', name: 'Small', kind: 'in-browser', baseUrl: '', apiKey: '', model: 'https://models.test/small.gguf' };

/** Sends one message in a tab on a fresh database, then reads the reply back in a second tab (a reload). */
async function replyAfterReload(): Promise<Message> {
  const databaseName = uniqueDatabaseName();
  const locks = memoryLocks();
  const createModel = async () => promptedModel(createInBrowserModel(profile), { profile });
  const tab = await openTab({ databaseName, locks, createModel });
  const { id } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId: id, text: 'Hello' });
  await waitForRunState(tab, id, ['idle', 'error']);
  tab.close();
  const reloaded = await openTab({ databaseName, locks, createModel });
  const opened = await reloaded.send({ type: 'conversation.open', conversationId: id });
  reloaded.close();
  expect(opened.conversation.runState).toBe('idle');
  return opened.messages.at(-1)!;
}

function textOf(message: Message): string {
  return message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

beforeEach(() => {
  calls.length = 0;
  engine.toolsFit = false;
});

describe('tools left out to fit a small context', () => {
  it('the reply answers without them, the model is told, and the user finds a notice on the reply after a reload', async () => {
    const reply = await replyAfterReload();
    expect(textOf(reply)).toBe('A plain answer.');
    expect(reply.notices).toEqual([{ key: 'tools_left_out', params: { tokens: 2048 } }]);
    expect(calls.map((call) => call.tools)).toEqual([true, false]);
    expect(calls[1]!.system).toContain('no tools are available in this conversation');
  });

  it('no notice when the tools fit', async () => {
    engine.toolsFit = true;
    const reply = await replyAfterReload();
    expect(textOf(reply)).toBe('A plain answer.');
    expect(reply.notices).toBeUndefined();
    expect(calls.map((call) => call.tools)).toEqual([true]);
  });
});

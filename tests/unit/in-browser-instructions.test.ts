import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest } from '../../src/core/run/model';
import type { Conversation, Profile } from '../../src/schema/records';
import { QUESTION_TOOL, toolSpecs } from '../../src/core/tools/tools';

// The instructions reach the in-browser model's chat template. The engine renders its template from the
// `messages` it is given (llama.cpp, inside wllama), so what is checked is those messages: the engine is replaced by one
// that records them, and the rest of the in-browser model (its system message, tools, continuation) is the real one.

const calls: Array<{ messages: Array<{ role: string; content: string }>; tools?: unknown; grammar?: unknown }> = [];
const engine = { constrainToolCalls: false, contextTokens: 4096 };
vi.mock('../../src/worker/providers/in-browser/engine', () => ({
  loadEngine: async () => ({
    ...engine,
    wllama: {
      async createChatCompletion(options: (typeof calls)[number]) {
        calls.push(structuredClone({ messages: options.messages, tools: options.tools, grammar: options.grammar }));
        return (async function* () {
          yield { choices: [{ delta: { content: 'Hi.' } }] };
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

/** The in-browser provider behind the prompt core builds, as the registry gives it. */
const inBrowser = (system?: string) => promptedModel(createInBrowserModel(profile), { system, profile });

const profile: Profile = { id: 'p', name: 'Tiny', kind: 'in-browser', baseUrl: '', apiKey: '', model: 'https://models.test/tiny.gguf', instructions: 'Answer like a pirate.' };
const conversation = (instructions?: string): Conversation => ({ id: 'c', title: 't', createdAt: 0, updatedAt: 0, runState: 'running', completedSteps: 0, ...(instructions ? { instructions } : {}) });
const question = toolSpecs([QUESTION_TOOL])[0]!;

function request(instructions?: string, tools: ModelRequest['tools'] = []): ModelRequest {
  return {
    conversation: conversation(instructions),
    history: [{ id: 'u', conversationId: 'c', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'Hello' }], status: 'complete', createdAt: 0, updatedAt: 0 }],
    tools,
    signal: new AbortController().signal,
  };
}

async function run(model: ReturnType<typeof promptedModel>, modelRequest: ModelRequest) {
  for await (const _ of model.streamStep(modelRequest));
  return calls.at(-1)!;
}

beforeEach(() => {
  calls.length = 0;
  engine.constrainToolCalls = false;
});

describe('instructions reach the in-browser model', () => {
  it("as the first, system message: Parley's prompt, then the profile's instructions", async () => {
    const { messages } = await run(inBrowser('You are Parley.'), request());
    expect(messages).toEqual([
      { role: 'system', content: 'You are Parley.\n\nAnswer like a pirate.' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  it("the conversation's instructions take the place of the profile's", async () => {
    const { messages } = await run(inBrowser('You are Parley.'), request('Answer in French.'));
    expect(messages[0]).toEqual({ role: 'system', content: 'You are Parley.\n\nAnswer in French.' });
    expect(JSON.stringify(messages)).not.toContain('pirate');
  });

  it('stay in the system message beside the tools the template is given, and beside the tools described when asking first', async () => {
    const withTools = await run(inBrowser(), request(undefined, [question]));
    expect(withTools.messages[0]).toEqual({ role: 'system', content: 'Answer like a pirate.' });
    expect(withTools.tools).toHaveLength(1);

    // "Ask first": the step's grammar allows only a question call, and the tools are written into the system message.
    engine.constrainToolCalls = true;
    const asking = await run(inBrowser(), request('Be brief.', [question]));
    expect(asking.grammar).toBeDefined();
    expect(asking.messages[0]!.role).toBe('system');
    expect(asking.messages[0]!.content).toMatch(/^Be brief\.\n\n# Tools\n/);
  });

  it('holds the first step to a call of a tool that asks the user, whatever its name', async () => {
    engine.constrainToolCalls = true;
    expect(question.asksUser).toBe(true);
    const namedAlike = { name: 'question', description: 'Not one that asks.', inputSchema: { type: 'object', properties: {} } };
    expect((await run(inBrowser(), request(undefined, [namedAlike]))).grammar).toBeUndefined();
    const renamed = { ...question, name: 'ask_user' };
    expect((await run(inBrowser(), request(undefined, [renamed]))).grammar).toContain('ask_user');
  });
});

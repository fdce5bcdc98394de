import { describe, expect, it } from 'vitest';
import { ModelError, type Model, type ModelPart, type ModelRequest } from '../../src/core/run/model';
import { versionsOf, type Message } from '../../src/schema/records';
import { memoryLocks, openTab, uniqueDatabaseName, waitForRunState, type TestTab, answerCommand } from './host-harness';

// Versions, for what the UI offers but no test covered: Regenerate on a stopped, a failed and an interrupted
// reply, and a
// run that resumes (an answer, a Continue) reading the branch on screen, not the newest version written.

function textOf(message: Message): string {
  return message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** The history a request carried, one line per message: role, then its text (a tool call and its result by name). */
function linesOf(request: ModelRequest): string[] {
  return request.history.map((message) => {
    const parts = message.blocks.map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type === 'request' && block.kind === 'question') return `[question: ${block.response?.toolResult ?? block.status}]`;
      if (block.type === 'tool_call') return `[${block.toolName}]`;
      return '';
    });
    return `${message.role}: ${parts.join('')}`;
  });
}

/** A model whose n-th step does `steps[n]`, recording every request (history and continuation) it received. */
function stepModel(steps: Array<(request: ModelRequest) => AsyncIterable<ModelPart>>) {
  const requests: ModelRequest[] = [];
  const model: Model = {
    streamStep(request) {
      requests.push(request);
      const step = steps[requests.length - 1];
      if (!step) throw new Error(`no step ${requests.length}`);
      return step(request);
    },
  };
  return { model, requests };
}

async function* say(text: string): AsyncIterable<ModelPart> {
  yield { type: 'text-delta', text };
  yield { type: 'finish' };
}

async function idle(tab: TestTab, conversationId: string) {
  await waitForRunState(tab, conversationId, ['idle', 'awaiting_input', 'error', 'interrupted']);
  return tab.send({ type: 'conversation.open', conversationId });
}

describe('Regenerate on a reply that did not complete', () => {
  it('a stopped reply: the new version answers the same history, the stopped one is kept as it was', async () => {
    let release: () => void = () => undefined;
    const { model, requests } = stepModel([
      async function* (request) {
        yield { type: 'text-delta', text: 'A long answer that the user stops' };
        // Holds until Stop aborts the request: the reply is stopped mid-way, not finished.
        await new Promise<void>((resolve) => {
          release = resolve;
          request.signal.addEventListener('abort', () => resolve());
        });
        request.signal.throwIfAborted();
      },
      () => say('A fresh answer.'),
    ]);
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => model });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'Explain.' });
    await expect.poll(async () => (await tab.send({ type: 'conversation.open', conversationId: id })).messages.map(textOf)[1]).toBe('A long answer that the user stops');
    await tab.send({ type: 'run.stop', conversationId: id });
    let opened = await idle(tab, id);
    const stopped = opened.messages[1]!;
    expect(stopped.status).toBe('stopped');

    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: stopped.id });
    opened = await idle(tab, id);
    expect(opened.conversation.runState).toBe('idle');
    expect(opened.messages.map(textOf)).toEqual(['Explain.', 'A fresh answer.']);
    expect(opened.messages[1]!.status).toBe('complete');
    // Asked from the same history: the user's message, without the stopped text.
    expect(requests.map(linesOf)).toEqual([['user: Explain.'], ['user: Explain.']]);
    const versions = versionsOf(opened.conversation.forks, opened.messages[1]!.id);
    expect(versions).toEqual({ ids: [stopped.id, opened.messages[1]!.id], index: 1 });
    const previous = await tab.send({ type: 'message.selectVersion', conversationId: id, messageId: stopped.id });
    expect(previous.messages.at(-1)).toMatchObject({ id: stopped.id, status: 'stopped' });
    expect(textOf(previous.messages.at(-1)!)).toBe('A long answer that the user stops');
    release();
    tab.close();
  });

  it('a failed reply: the new version answers, the error is gone from the conversation and kept on the old version', async () => {
    const { model, requests } = stepModel([
      async function* () {
        throw new ModelError('auth', 'The API key was rejected (401).', { status: 401 });
      },
      () => say('It works now.'),
    ]);
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => model });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'Hello?' });
    await waitForRunState(tab, id, ['error']);
    let opened = await tab.send({ type: 'conversation.open', conversationId: id });
    const failed = opened.messages[1]!;
    expect(failed.status).toBe('error');
    expect(failed.blocks.at(-1)).toMatchObject({ type: 'error', code: 'auth' });

    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: failed.id });
    opened = await idle(tab, id);
    expect(opened.conversation.runState).toBe('idle');
    expect(opened.conversation.runError).toBeUndefined();
    expect(opened.messages.map(textOf)).toEqual(['Hello?', 'It works now.']);
    expect(requests.map(linesOf)).toEqual([['user: Hello?'], ['user: Hello?']]);
    expect(versionsOf(opened.conversation.forks, opened.messages[1]!.id).ids).toEqual([failed.id, opened.messages[1]!.id]);
    const previous = await tab.send({ type: 'message.selectVersion', conversationId: id, messageId: failed.id });
    expect(previous.messages.at(-1)!.blocks.at(-1)).toMatchObject({ type: 'error', code: 'auth' });
    tab.close();
  });
});

describe('Regenerate on an interrupted reply', () => {
  /**
   * Leaves `Explain.` answered by an interrupted `Half of `: by a stream cut mid-reply (the model's first step, the run
   * in error), or by a tab that died in it (found running, repaired as interrupted). Then the model says a whole answer.
   */
  const interruptions = {
    'a stream cut mid-reply': {
      runState: 'error',
      steps: [
        async function* (): AsyncIterable<ModelPart> {
          yield { type: 'text-delta', text: 'Half of ' };
          throw new ModelError('bad_stream', 'The answer stopped in the middle.');
        },
      ],
      async leave(tab: TestTab, id: string) {
        await tab.send({ type: 'message.send', conversationId: id, text: 'Explain.' });
        await waitForRunState(tab, id, ['error']);
      },
    },
    'a tab that died while writing it': {
      runState: 'interrupted',
      steps: [],
      async leave(tab: TestTab, id: string) {
        const conversation = (await tab.host.store.getConversation(id))!;
        await tab.host.store.write({
          conversation: { ...conversation, runState: 'running' },
          messages: [
            { id: 'u1', conversationId: id, seq: 0, role: 'user', blocks: [{ type: 'text', text: 'Explain.' }], status: 'complete', createdAt: 1, updatedAt: 1 },
            { id: 'a1', conversationId: id, seq: 1, role: 'assistant', blocks: [{ type: 'text', text: 'Half of ' }], status: 'streaming', createdAt: 1, updatedAt: 1 },
          ],
        });
      },
    },
  };

  it.each(Object.keys(interruptions) as Array<keyof typeof interruptions>)('after %s: a new version from the same history, not a continuation; the interrupted one is kept', async (kind) => {
    const interruption = interruptions[kind];
    const { model, requests } = stepModel([...interruption.steps, () => say('A whole answer.')]);
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: async () => model });
    const { id } = await tab.send({ type: 'conversation.create' });
    await interruption.leave(tab, id);
    let opened = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(opened.conversation.runState).toBe(interruption.runState);
    const interrupted = opened.messages[1]!;
    expect(interrupted.status).toBe('interrupted');
    expect(textOf(interrupted)).toBe('Half of ');
    const asked = requests.length;

    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: interrupted.id });
    opened = await idle(tab, id);
    expect(opened.conversation.runState).toBe('idle');
    expect(opened.conversation.runError).toBeUndefined();
    expect(opened.messages.map(textOf)).toEqual(['Explain.', 'A whole answer.']);
    expect(opened.messages[1]).toMatchObject({ status: 'complete' });
    expect(opened.messages[1]!.id).not.toBe(interrupted.id);
    // Asked afresh: the user's message alone, with no continuation of the interrupted text.
    const regenerated = requests[asked]!;
    expect(regenerated.continuation).toBeUndefined();
    expect(linesOf(regenerated)).toEqual(['user: Explain.']);
    expect(versionsOf(opened.conversation.forks, opened.messages[1]!.id)).toEqual({ ids: [interrupted.id, opened.messages[1]!.id], index: 1 });

    // The interrupted version is still there as it was, and with it on screen the conversation can be continued again.
    const previous = await tab.send({ type: 'message.selectVersion', conversationId: id, messageId: interrupted.id });
    expect(previous.conversation.runState).toBe('interrupted');
    expect(previous.messages.at(-1)).toMatchObject({ id: interrupted.id, status: 'interrupted' });
    expect(textOf(previous.messages.at(-1)!)).toBe('Half of ');
    tab.close();
  });
});

describe('a run resumes on the branch on screen', () => {
  it('after switching back to the first version, an answer and a Continue (in a reloaded tab) send that path to the model', async () => {
    const question = { questions: [{ header: 'Depth', question: 'How deep?', options: [{ label: 'Short' }, { label: 'Long' }] }] };
    const { model, requests } = stepModel([
      () => say('Version one.'),
      () => say('Version two.'),
      async function* () {
        yield { type: 'tool-call', toolCallId: 'ask_1', toolName: 'question', input: question };
        yield { type: 'finish' };
      },
      // After the answer: half a reply, then the stream breaks, leaving the reply interrupted.
      async function* () {
        yield { type: 'text-delta', text: 'Half of ' };
        throw new ModelError('bad_stream', 'The answer stopped in the middle.');
      },
      () => say('the answer.'),
    ]);
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const tab = await openTab({ databaseName, locks, createModel: async () => model });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'Tell me.' });
    let opened = await idle(tab, id);
    const first = opened.messages[1]!;
    await tab.send({ type: 'message.regenerate', conversationId: id, messageId: first.id });
    opened = await idle(tab, id);
    expect(opened.messages.map(textOf)).toEqual(['Tell me.', 'Version two.']);
    // Back to the first version: the newest version written is now off screen.
    await tab.send({ type: 'message.selectVersion', conversationId: id, messageId: first.id });

    await tab.send({ type: 'message.send', conversationId: id, text: 'Ask me.' });
    opened = await idle(tab, id);
    expect(opened.conversation.runState).toBe('awaiting_input');
    const asking = opened.messages.at(-1)!;
    const onScreen = ['user: Tell me.', 'assistant: Version one.', 'user: Ask me.'];
    expect(linesOf(requests[2]!)).toEqual(onScreen);

    await tab.send(answerCommand({ conversationId: id, messageId: asking.id, toolCallId: 'ask_1' }, [{ selected: ['Short'] }]));
    await waitForRunState(tab, id, ['error', 'interrupted']);
    expect(linesOf(requests[3]!)).toEqual([...onScreen, expect.stringMatching(/^assistant: \[question: User has answered your questions: "How deep\?"="Short"/)]);
    tab.close();

    // A reload: another tab on the same database continues the interrupted reply, on the same path.
    const reloaded = await openTab({ databaseName, locks, createModel: async () => model });
    await reloaded.send({ type: 'run.continue', conversationId: id });
    opened = await idle(reloaded, id);
    expect(opened.conversation.runState).toBe('idle');
    const resumed = requests[4]!;
    expect(resumed.continuation?.text).toBe('Half of ');
    expect(linesOf(resumed).slice(0, 3)).toEqual(onScreen);
    expect(linesOf(resumed).join('\n')).not.toContain('Version two.');
    expect(opened.messages.map(textOf)).toEqual(['Tell me.', 'Version one.', 'Ask me.', '', 'Half of the answer.']);
    reloaded.close();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import * as z from '../../src/schema/zod-mini';
import { failWrites, memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab, answerCommand } from './host-harness';
import { zodTool } from '../../src/core/tools/tools';
import type { Model } from '../../src/core/run/model';
import type { Tool } from '../../src/core/tools/tool';
import type { Message, Profile } from '../../src/schema/records';
import { createModelForProfile } from '../../src/worker/providers/registry';
import { described, modelRecording, recordTransactions, stopRecording, type Begun } from './transaction-log';
import { requestBindingOf } from '../../src/core/requests/request-ids';
import { findRequest } from '../../src/core/requests/requests';
import type { Proposal } from '../../src/schema/sync/sync';
import type { CommandHandle } from '../../src/worker/command-handler';

// What the worker does between the user's answer (or Allow) and the next model request, counted in
// IndexedDB transactions (transaction-log.ts).

let restoreWrites: () => void = () => undefined;
afterEach(() => {
  stopRecording();
  restoreWrites();
});

const ASK = { text: 'First:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Pick', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }] } }] };
const CALL = { text: 'Writing.', toolCalls: [{ name: 'mcp__files__write_file', args: { path: 'a.txt' } }] };
const DONE = { text: 'Done: {{lastToolResult}}' };

async function pausedConversation(tab: TestTab) {
  const { id: conversationId } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'message.send', conversationId, text: 'go' });
  await waitForRunState(tab, conversationId, ['awaiting_input']);
  const message: Message = (await tab.send({ type: 'conversation.open', conversationId })).messages.at(-1)!;
  const block = message.blocks.find((candidate) => candidate.type === 'request');
  if (!block || block.type !== 'request') throw new Error('no request');
  return { conversationId, messageId: message.id, requestId: block.toolCallId };
}

/** The phone's answer to the paused question, as the laptop receives it (a proposal with its nonce). */
async function answerProposal(tab: TestTab, target: { conversationId: string; messageId: string; requestId: string }): Promise<Proposal> {
  const request = findRequest((await tab.host.store.getMessage(target.messageId))!, target.requestId)!;
  const command = { type: 'request.resolve' as const, ...target, approved: true, params: { answers: [{ selected: ['B'] }] }, expect: requestBindingOf(request) };
  return { id: 'proposal-1', conversationId: target.conversationId, from: { id: 'device-phone', name: 'Phone' }, command, createdAt: 1, nonce: '0123456789abcdef0123456789abcdef' };
}

const applyProposal = (tab: TestTab, proposal: Proposal) => (tab.host.handle as CommandHandle).applyProposal(proposal);

describe('from an answer to the next model request', () => {
  it("a question answered on another device: its nonce is recorded in the compare-and-set's transaction, still the only one the model request waits for, and a replay is refused", async () => {
    let log: Begun[] | undefined;
    const model = modelRecording(() => log);
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const tab = await openTab({ databaseName, locks, createModel: model.createModel });
    await tab.send({ type: 'settings.update', script: script([ASK, DONE, DONE]) });
    const target = await pausedConversation(tab);
    const proposal = await answerProposal(tab, target);

    log = recordTransactions();
    expect(await applyProposal(tab, proposal)).toEqual({ status: 'applied' });
    await model.called;
    expect(model.seen).toEqual([['readwrite', 'readwrite (open)']]);
    expect(log[0]?.stores).toBe('conversations,messages,settings');
    stopRecording();
    await waitForRunState(tab, target.conversationId, ['idle']);

    // The server writes the proposal back (its first revision, without the outcome): refused, here and after a restart.
    expect(await applyProposal(tab, proposal)).toEqual({ status: 'refused', reason: 'replayed' });
    tab.close();
    const restarted = await openTab({ databaseName, locks });
    expect(await applyProposal(restarted, proposal)).toEqual({ status: 'refused', reason: 'replayed' });
    expect((await restarted.host.store.listMessages(target.conversationId)).filter((message) => message.role === 'assistant')).toHaveLength(2);
  });

  it('a crash in the compare-and-set of another device\'s answer stores neither the answer nor its nonce', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([ASK, DONE]) });
    const target = await pausedConversation(tab);
    const nonce = (await answerProposal(tab, target)).nonce!;
    const resolution = { approved: true, params: { answers: [{ selected: ['B'] }] } };
    const checks = { checkArgs: () => ({ ok: false as const, error: '' }), checkContent: () => ({ ok: false as const, error: '' }) };
    restoreWrites = failWrites((value) => (value as Message).id === target.messageId);
    await expect(tab.host.store.resolveRequest(target, resolution, checks, { claim: nonce })).rejects.toMatchObject({ code: 'storage_full' });
    restoreWrites();
    expect(findRequest((await tab.host.store.getMessage(target.messageId))!, target.requestId)?.status).toBe('pending');

    await tab.host.store.resolveRequest(target, resolution, checks, { claim: nonce });
    // Both stored together: the nonce is taken.
    expect(await tab.host.store.claimProposal(nonce)).toBe(false);
  });

  it('a question: the compare-and-set is the only transaction the model request waits for, and no read comes between', async () => {
    let log: Begun[] | undefined;
    const model = modelRecording(() => log);
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel: model.createModel });
    await tab.send({ type: 'settings.update', script: script([ASK, DONE]) });
    const target = await pausedConversation(tab);

    log = recordTransactions();
    await tab.send(answerCommand({ conversationId: target.conversationId, messageId: target.messageId, toolCallId: target.requestId }, [{ selected: ['A'] }]));
    await model.called;
    // The reply's first write is begun before the request but not waited for.
    expect(model.seen).toEqual([['readwrite', 'readwrite (open)']]);
    expect(log[0]?.stores).toBe('conversations,messages,settings'); // the compare-and-set also read the config generation
  });

  it('an approved tool call: one write before the tool runs (the answer with the call marked running), one after it, and no read', async () => {
    let log: Begun[] | undefined;
    let atTool: string[] | undefined;
    const model = modelRecording(() => log);
    const tool: Tool = {
      ...zodTool({
        name: 'mcp__files__write_file',
        description: 'Writes a file.',
        input: z.strictObject({ path: z.string() }),
        async execute() {
          if (log) atTool = described(log);
          return { text: 'written' };
        },
      }),
      permission: 'ask',
      source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin: 'http://files.test' },
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), tools: [tool], createModel: model.createModel });
    await tab.send({ type: 'settings.update', script: script([CALL, DONE]) });
    const target = await pausedConversation(tab);

    log = recordTransactions();
    await tab.send({ type: 'request.resolve', ...target, approved: true });
    await model.called;
    expect(atTool).toEqual(['readwrite']);
    expect(model.seen).toEqual([['readwrite', 'readwrite', 'readwrite (open)']]);
    // Both durable writes ask for their commit with their puts, not one round trip later (see commitWith).
    expect(log!.slice(0, 2).map((entry) => entry.commitAsked)).toEqual([true, true]);
  });

  it("an approved tool call: the next step's model is asked for while the result commits, and its request still waits for the commit", async () => {
    let log: Begun[] | undefined;
    const atModel: string[][] = [];
    const recording = modelRecording(() => log);
    const createModel = (profile: Profile, scriptText: string) => {
      if (log) atModel.push(described(log));
      return recording.createModel(profile, scriptText);
    };
    const tool: Tool = {
      ...zodTool({ name: 'mcp__files__write_file', description: 'Writes a file.', input: z.strictObject({ path: z.string() }), execute: async () => ({ text: 'written' }) }),
      permission: 'ask',
      source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin: 'http://files.test' },
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), tools: [tool], createModel });
    await tab.send({ type: 'settings.update', script: script([CALL, DONE]) });
    const target = await pausedConversation(tab);

    log = recordTransactions();
    await tab.send({ type: 'request.resolve', ...target, approved: true });
    await recording.called;
    // Asked for once, while the result's transaction (the second) was still open; the request came after its commit.
    expect(atModel).toEqual([['readwrite', 'readwrite (open)']]);
    expect(recording.seen).toEqual([['readwrite', 'readwrite', 'readwrite (open)']]);
  });

  it('a profile chosen while the tool ran is the one the next step uses', async () => {
    const used: string[] = [];
    let switchTo: (() => Promise<unknown>) | undefined;
    const tool: Tool = {
      ...zodTool({ name: 'mcp__files__write_file', description: 'Writes a file.', input: z.strictObject({ path: z.string() }), execute: async () => (await switchTo?.(), { text: 'written' }) }),
      permission: 'allow',
      source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin: 'http://files.test' },
    };
    const createModel = (profile: Profile, scriptText: string) => {
      used.push(profile.name);
      return createModelForProfile({ ...profile, kind: 'scripted' }, scriptText);
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), tools: [tool], createModel });
    await tab.send({ type: 'settings.update', script: script([CALL, DONE]) });
    const other = await tab.send({ type: 'profiles.save', profile: { name: 'Other', kind: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'm' } });
    const { id } = await tab.send({ type: 'conversation.create' });
    switchTo = () => tab.send({ type: 'conversation.setProfile', conversationId: id, profileId: other.id });
    await tab.send({ type: 'message.send', conversationId: id, text: 'go' });
    await waitForRunState(tab, id, ['idle']);
    expect(used.at(-1)).toBe('Other');
    expect(used.at(-2)).not.toBe('Other');
  });

  it('settings another tab saved are used by the next step even when its hint never arrives', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const here = await openTab({ databaseName, locks });
    const there = await openTab({ databaseName, locks }); // its broadcasts reach nobody
    await here.send({ type: 'settings.update', script: script([{ text: 'old one' }, { text: 'old two' }]) });
    const { id } = await here.send({ type: 'conversation.create' });
    await here.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(here, id, ['idle']);

    await there.send({ type: 'settings.update', script: script([{ text: 'new one' }, { text: 'new two' }]) });
    await here.send({ type: 'message.send', conversationId: id, text: 'again' });
    await waitForRunState(here, id, ['idle']);
    const { messages } = await here.send({ type: 'conversation.open', conversationId: id });
    expect(messages.at(-1)!.blocks).toEqual([{ type: 'text', text: 'new two' }]);
  });

  it('a tab that died after the answer, before the reply was first written: the run is repaired and Continue answers once', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const dead = await openTab({ databaseName, locks });
    await dead.send({ type: 'settings.update', script: script([ASK, { text: 'Got: {{lastToolResult}}' }]) });
    const target = await pausedConversation(dead);
    // What it left: the answer stored (the compare-and-set) and the request perhaps sent, nothing more, no lock held.
    await dead.host.store.resolveRequest(target, { approved: true, params: { answers: [{ selected: ['B'] }] } }, { checkArgs: () => ({ ok: false, error: '' }), checkContent: () => ({ ok: false, error: '' }) });
    dead.close();

    const tab = await openTab({ databaseName, locks });
    const opened = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(opened.conversation.runState).toBe('interrupted');
    expect(opened.messages).toHaveLength(2);
    await tab.send({ type: 'run.continue', conversationId: target.conversationId });
    await waitForRunState(tab, target.conversationId, ['idle']);
    const { messages } = await tab.send({ type: 'conversation.open', conversationId: target.conversationId });
    expect(messages).toHaveLength(3);
    expect(messages[2]!.blocks).toEqual([{ type: 'text', text: expect.stringContaining('"Which?"="B"') }]);
  });

  it("opening a conversation loads its provider's code ahead of the request an answer or a message will make", async () => {
    const prepared: string[] = [];
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), prepareModel: (profile) => prepared.push(profile.name) });
    const local = await tab.send({ type: 'profiles.save', profile: { name: 'Local', kind: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'm' } });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'conversation.setProfile', conversationId: id, profileId: local.id });
    expect(prepared).toEqual([]);
    await tab.send({ type: 'conversation.open', conversationId: id });
    await expect.poll(() => prepared).toEqual(['Local']);

    // At start-up, the list loads it for every conversation waiting for the user, before any is opened.
    prepared.length = 0;
    await tab.host.store.updateConversation(id, (conversation) => ({ ...conversation, runState: 'awaiting_input' }));
    await tab.send({ type: 'conversation.list' });
    await expect.poll(() => prepared).toEqual(['Local']);
  });

  it("the reply's first write fails (a full disk): its request is cancelled at once, and the run ends as when nothing was sent", async () => {
    // A model that streams 40 parts slowly and notes how far it was read and the signal it was given.
    let slow = false;
    let partsRead = 0;
    let requestSignal: AbortSignal | undefined;
    const createModel = async (profile: Profile, scriptText: string): Promise<Model> => {
      if (!slow) return createModelForProfile(profile, scriptText);
      return {
        async *streamStep(request) {
          requestSignal = request.signal;
          for (let index = 0; index < 40; index += 1) {
            partsRead += 1;
            yield { type: 'text-delta', text: 'x' };
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        },
      };
    };
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), createModel });
    await tab.send({ type: 'settings.update', script: script([{ text: 'First reply.' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(tab, id, ['idle']);
    const before = (await tab.send({ type: 'conversation.open', conversationId: id })).messages;

    slow = true;
    let failed = false;
    restoreWrites = failWrites((value) => {
      const message = value as Partial<Message>;
      if (failed || message.role !== 'assistant' || message.status !== 'streaming') return false;
      return (failed = true); // the reply's first write only; everything after it has room
    });
    await tab.send({ type: 'message.send', conversationId: id, text: 'again' });
    await waitForRunState(tab, id, ['interrupted']);

    expect(failed).toBe(true);
    expect(requestSignal?.aborted).toBe(true); // the provider's fetch is cancelled…
    expect(partsRead).toBeLessThan(40); // …and its stream not read to the end
    // Said once a storage failure's words have loaded (they load with the first failure): it may come after the run ended.
    await expect.poll(() => tab.events.some((event) => event.type === 'storage-error' && event.reason === 'storage_full'), { timeout: 10_000 }).toBe(true);
    const after = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(after.conversation.runState).toBe('interrupted'); // Continue answers it once there is room
    expect(after.messages.slice(0, 2)).toEqual(before);
    expect(after.messages.map((message) => `${message.role}:${message.status}`)).toEqual(['user:complete', 'assistant:complete', 'user:complete']);
  });
});

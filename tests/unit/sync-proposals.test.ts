import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab, answerCommand } from './host-harness';
import { LAPTOP, PHONE, SimulatedMirror, SimulatedReplicator, SimulatedServer, randomFrom, simulatedDevices, testKeys } from './sync-simulation';
import type { QuestionRequest } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';
import { SyncPayload } from '../../src/schema/sync/sync';
import { recordTransactions, stopRecording } from './transaction-log';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import { documentId, open } from '../../src/worker/sync/documents/sync-crypto';

// Host tests: two devices, each a real host over its own IndexedDB, joined through a simulated CouchDB
// replicator that delays, duplicates and reorders documents. The device that runs a conversation applies another
// device's answer through its own compare-and-set, once.

const ASK = {
  text: 'Before I plan:',
  toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], custom: false }] } }],
};
const ECHO = { text: 'Got: {{lastToolResult}}' };

const keys = testKeys;

interface World {
  laptop: TestTab;
  phone: TestTab;
  server: SimulatedServer;
  laptopMirror: SimulatedMirror;
  phoneMirror: SimulatedMirror;
  replicator: SimulatedReplicator;
}

async function world(seed: number): Promise<World> {
  return simulatedDevices(seed, { prepare: async (laptop) => void (await laptop.send({ type: 'settings.update', script: script([ASK, ECHO, ECHO]) })) });
}

function questionOf(message: Message | undefined): QuestionRequest {
  const block = message?.blocks.find((candidate) => candidate.type === 'request' && candidate.kind === 'question');
  if (!block || block.type !== 'request' || block.kind !== 'question') throw new Error('no question block');
  return block;
}

const textOf = (message: Message | undefined) => message?.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? '';

/** The laptop's agent asks; the phone has received the question (its inbox lists it). */
async function askOnLaptop({ laptop, phone, replicator }: World) {
  const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
  await laptop.send({ type: 'message.send', conversationId, text: 'Plan a trip' });
  await waitForRunState(laptop, conversationId, ['awaiting_input']);
  await replicator.settle(async () => (await phone.send({ type: 'requests.listPending' })).length === 1);
  const [pending] = await phone.send({ type: 'requests.listPending' });
  return { conversationId, messageId: pending!.messageId, toolCallId: pending!.request.requestId };
}

/** Replicates until both devices hold the same resolved question and the laptop's run has ended. */
async function settleAnswered(current: World, target: { conversationId: string; messageId: string }) {
  await current.replicator.settle(async () => {
    const [onLaptop, onPhone, conversation] = await Promise.all([
      current.laptop.host.store.getMessage(target.messageId),
      current.phone.host.store.getMessage(target.messageId),
      current.laptop.host.store.getConversation(target.conversationId),
    ]);
    if (conversation?.runState !== 'idle' || current.laptop.host.runs.isRunningHere(target.conversationId)) return false;
    const last = (await current.laptop.host.store.listMessages(target.conversationId)).at(-1);
    const phoneLast = (await current.phone.host.store.listMessages(target.conversationId)).at(-1);
    return questionOf(onLaptop).status !== 'pending' && isDeepStrictEqual(onLaptop, onPhone) && last?.id === phoneLast?.id && last?.status === 'complete' && isDeepStrictEqual(last, phoneLast);
  });
}

describe('answering on another device (sync)', { timeout: 60_000 }, () => {
  it("the phone's answer is a proposal the laptop applies: its run resumes with the phone's answers, marked as given on the phone", async () => {
    const current = await world(1);
    const target = await askOnLaptop(current);
    const result = await current.phone.send(answerCommand(target, [{ selected: ['City'] }]));
    expect(result.proposedTo).toEqual(LAPTOP);
    // Nothing changed on the phone by itself: the laptop decides.
    expect(questionOf(await current.phone.host.store.getMessage(target.messageId)).status).toBe('pending');
    await settleAnswered(current, target);
    const question = questionOf(await current.laptop.host.store.getMessage(target.messageId));
    expect(question).toMatchObject({ status: 'success', resolution: 'answered', response: { answers: [{ selected: ['City'] }] }, resolvedOn: PHONE });
    const messages = await current.laptop.host.store.listMessages(target.conversationId);
    expect(textOf(messages.at(-1))).toBe('Got: User has answered your questions: "Where to?"="City". You can now continue with the user\'s answers in mind.');
    expect((await current.laptop.host.store.getConversation(target.conversationId))?.completedSteps).toBe(2);
    // The phone now holds what the laptop wrote, and its inbox is empty.
    expect(await current.phone.send({ type: 'requests.listPending' })).toEqual([]);
    expect(textOf((await current.phone.host.store.listMessages(target.conversationId)).at(-1))).toBe(textOf(messages.at(-1)));
  });

  it("an answer given on the phone is proposed after one read of the phone's database (the request, in its message)", async () => {
    const current = await world(5);
    const target = await askOnLaptop(current);
    const log = recordTransactions();
    try {
      await current.phone.send(answerCommand(target, [{ selected: ['City'] }]));
    } finally {
      stopRecording();
    }
    const phoneDatabase = current.phone.host.store['database'].name;
    expect(log.filter((entry) => entry.database === phoneDatabase).map((entry) => `${entry.mode} ${entry.stores}`)).toEqual(['readonly messages']);
  });

  it('the server holds no plaintext: no message text, title, answer or device name in any document', async () => {
    const current = await world(2);
    const target = await askOnLaptop(current);
    await current.phone.send(answerCommand(target, [{ selected: ['City'] }]));
    await settleAnswered(current, target);
    const everything = current.server.allPlaintext();
    for (const secret of ['Plan a trip', 'Where to?', 'City', 'Before I plan', 'Laptop', 'Phone', 'device-laptop', target.conversationId, target.messageId]) expect(everything).not.toContain(secret);
  });

  it('both devices answer at once, 20 times in random orders: one outcome everywhere, the model reads it once, the loser is told by the records', async () => {
    const winners = new Set<string>();
    for (let trial = 0; trial < 20; trial += 1) {
      const current = await world(100 + trial);
      const target = await askOnLaptop(current);
      const laptopChoice = trial % 2 === 0 ? 'Beach' : 'City';
      const phoneChoice = laptopChoice === 'Beach' ? 'City' : 'Beach';
      // The phone proposes; the replicator moves a random number of documents (the proposal may or may not reach the
      // laptop and be applied meanwhile); then the laptop's user clicks too.
      await current.phone.send(answerCommand(target, [{ selected: [phoneChoice] }]));
      for (let step = 0; step < (trial * 7) % 23; step += 1) {
        current.replicator.step();
        await new Promise((resolve) => setTimeout(resolve, trial % 3));
      }
      const laptopClick = await current.laptop.send(answerCommand(target, [{ selected: [laptopChoice] }])).then(
        () => 'applied',
        (error: { code?: string }) => error.code,
      );
      await settleAnswered(current, target);
      const onLaptop = questionOf(await current.laptop.host.store.getMessage(target.messageId));
      const onPhone = questionOf(await current.phone.host.store.getMessage(target.messageId));
      expect(onPhone).toEqual(onLaptop);
      // One outcome: the device named in it is the one whose answers it holds; a losing click was refused.
      const winner = onLaptop.resolvedOn?.id === PHONE.id ? 'phone' : 'laptop';
      winners.add(winner);
      expect(onLaptop.response?.answers).toEqual([{ selected: [winner === 'phone' ? phoneChoice : laptopChoice] }]);
      expect(laptopClick).toBe(winner === 'laptop' ? 'applied' : 'already_resolved');
      const messages = await current.laptop.host.store.listMessages(target.conversationId);
      expect(messages.filter((message) => message.role === 'assistant' && textOf(message).startsWith('Got:'))).toHaveLength(1);
      expect((await current.laptop.host.store.getConversation(target.conversationId))?.completedSteps).toBe(2);
    }
    // The trials covered both orders of arrival.
    expect([...winners].sort()).toEqual(['laptop', 'phone']);
  }, 180_000);

  it('two tabs of the laptop hear the phone\'s answer, 8 times in random orders: it is applied once, the run resumes once, its outcome says applied', async () => {
    for (let trial = 0; trial < 8; trial += 1) {
      const server = new SimulatedServer();
      const [laptopMirror, otherTabMirror, phoneMirror] = [new SimulatedMirror(server), new SimulatedMirror(server), new SimulatedMirror(server)];
      const replicator = new SimulatedReplicator(server, [laptopMirror, otherTabMirror, phoneMirror], randomFrom(300 + trial));
      const databaseName = uniqueDatabaseName();
      const locks = memoryLocks();
      const peers: TestTab[] = [];
      const laptop = await openTab({ databaseName, locks, peers });
      const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
      await laptop.send({ type: 'settings.update', script: script([ASK, ECHO, ECHO]) });
      await laptop.host.sync.attach(laptopMirror, await testKeys(), LAPTOP);
      await phone.host.sync.attach(phoneMirror, await testKeys(), PHONE);
      const target = await askOnLaptop({ laptop, phone, server, laptopMirror, phoneMirror, replicator });
      // Another tab of the same browser opens now: the same database, device and locks, its own engine and mirror.
      const other = await openTab({ databaseName, locks, peers: [laptop] });
      peers.push(other);
      await other.host.sync.attach(otherTabMirror, await testKeys(), LAPTOP);
      await phone.send(answerCommand(target, [{ selected: ['City'] }]));
      await replicator.settle(async () => {
        const conversation = await laptop.host.store.getConversation(target.conversationId);
        const running = laptop.host.runs.isRunningHere(target.conversationId) || other.host.runs.isRunningHere(target.conversationId);
        return conversation?.runState === 'idle' && !running && questionOf(await laptop.host.store.getMessage(target.messageId)).status !== 'pending';
      });
      await replicator.settle();
      expect(questionOf(await laptop.host.store.getMessage(target.messageId))).toMatchObject({ response: { answers: [{ selected: ['City'] }] }, resolvedOn: PHONE });
      const messages = await laptop.host.store.listMessages(target.conversationId);
      expect(messages.filter((message) => message.role === 'assistant' && textOf(message).startsWith('Got:'))).toHaveLength(1);
      expect((await laptop.host.store.getConversation(target.conversationId))?.completedSteps).toBe(2);
      // The proposal's outcome, as the phone reads it from the server: applied (the tab that came second wrote none).
      const proposals = [];
      for (const { document } of server.documents.values()) {
        const payload = document.ct ? SyncPayload.parse(JSON.parse(await open(await testKeys(), { iv: document.iv!, ct: document.ct }))) : undefined;
        if (payload?.kind === 'proposal') proposals.push(payload.proposal);
      }
      expect(proposals.map((proposal) => proposal.outcome?.status)).toEqual(['applied']);
      laptop.close();
      other.close();
      phone.close();
    }
  }, 180_000);

  it('an answer given on the phone while it is offline is delivered when it is back, and applied once however often it arrives', async () => {
    const current = await world(3);
    const target = await askOnLaptop(current);
    current.replicator.setOffline(current.phoneMirror, true);
    const result = await current.phone.send(answerCommand(target, [{ selected: ['Beach'] }]));
    expect(result.proposedTo).toEqual(LAPTOP);
    for (let step = 0; step < 50; step += 1) current.replicator.step();
    expect(questionOf(await current.laptop.host.store.getMessage(target.messageId)).status).toBe('pending');
    current.replicator.setOffline(current.phoneMirror, false);
    await settleAnswered(current, target);
    expect(questionOf(await current.laptop.host.store.getMessage(target.messageId))).toMatchObject({ response: { answers: [{ selected: ['Beach'] }] }, resolvedOn: PHONE });
    // The same answer proposed again (a retried click) does not resolve anything twice.
    await current.phone.send(answerCommand(target, [{ selected: ['City'] }])).catch(() => undefined);
    await current.replicator.settle();
    expect(questionOf(await current.laptop.host.store.getMessage(target.messageId)).response?.answers).toEqual([{ selected: ['Beach'] }]);
    expect((await current.laptop.host.store.getConversation(target.conversationId))?.completedSteps).toBe(2);
  });

  it('a message typed on the phone is sent by the laptop once, and answers the waiting question as a chat reply', async () => {
    const current = await world(4);
    const target = await askOnLaptop(current);
    const result = await current.phone.send({ type: 'message.send', conversationId: target.conversationId, text: 'Somewhere warm' });
    expect(result).toEqual({ proposedTo: LAPTOP });
    await settleAnswered(current, target);
    const messages = await current.laptop.host.store.listMessages(target.conversationId);
    expect(messages.filter((message) => message.role === 'user').map(textOf)).toEqual(['Plan a trip', 'Somewhere warm']);
    expect(questionOf(await current.laptop.host.store.getMessage(target.messageId))).toMatchObject({ resolution: 'chat', resolvedOn: PHONE });
  });

  it('the phone cannot change a conversation the laptop runs, and "Continue on this device" takes it over: one device wins', async () => {
    const current = await world(5);
    const target = await askOnLaptop(current);
    await expect(current.phone.send({ type: 'conversation.rename', conversationId: target.conversationId, title: 'Mine' })).rejects.toMatchObject({ reason: 'runs_elsewhere' });
    expect(await current.phone.send({ type: 'sync.runners' })).toEqual({ [target.conversationId]: LAPTOP });
    // A restart of the phone's sync (a reload) remembers who runs what without reading every document again.
    await current.phone.host.sync.detach();
    await current.phone.host.sync.attach(current.phoneMirror, await keys(), PHONE);
    expect(await current.phone.send({ type: 'sync.runners' })).toEqual({ [target.conversationId]: LAPTOP });
    await expect(current.phone.send({ type: 'conversation.rename', conversationId: target.conversationId, title: 'Mine' })).rejects.toMatchObject({ reason: 'runs_elsewhere' });
    // The laptop is closed: its engine stops. The phone takes over, then answers here, and its own run goes on.
    await current.laptop.host.sync.detach();
    current.replicator.mirrors.splice(0, 1);
    await current.phone.send({ type: 'conversation.takeOver', conversationId: target.conversationId });
    expect(await current.phone.send({ type: 'sync.runners' })).toEqual({});
    await current.phone.send({ type: 'settings.update', script: script([ASK, ECHO, ECHO]) });
    await current.phone.send({ type: 'conversation.setProfile', conversationId: target.conversationId, profileId: (await current.phone.send({ type: 'settings.get' })).defaultProfileId });
    const answered = await current.phone.send(answerCommand(target, [{ selected: ['Beach'] }]));
    expect(answered.proposedTo).toBeUndefined();
    await waitForRunState(current.phone, target.conversationId, ['idle']);
    // A second take-over from a device that read the old runner loses.
    const late = new SimulatedMirror(current.server);
    const third = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await third.host.sync.attach(late, await keys(), { id: 'device-tablet', name: 'Tablet' });
    current.replicator.mirrors.push(late);
    await current.replicator.settle(async () => (await third.host.store.getConversation(target.conversationId)) !== undefined && Object.keys(await third.send({ type: 'sync.runners' })).length === 1);
    expect(await third.send({ type: 'sync.runners' })).toEqual({ [target.conversationId]: PHONE });
  });

  it('an answer as the build before proposed it (its committed fixture) is applied on the laptop once', async () => {
    const current = await world(6);
    const target = await askOnLaptop(current);
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/sync/proposals-v1.json', import.meta.url), 'utf8')) as { proposals: Array<{ proposal: { conversationId: string; action: Record<string, unknown> } }> };
    const old = structuredClone(fixture.proposals[0]!);
    // That build's shape, naming this world's conversation, message and question.
    old.proposal.conversationId = target.conversationId;
    Object.assign(old.proposal.action, { messageId: target.messageId, requestId: target.toolCallId });
    const id = await documentId(await keys(), 'proposal', target.conversationId, `request:${target.messageId}:${target.toolCallId}`, PHONE.id);
    await new SealedDocuments(current.phoneMirror, await keys()).write(id, { ...old, proposal: { ...old.proposal, id } } as unknown as SyncPayload);
    await settleAnswered(current, target);
    expect(questionOf(await current.laptop.host.store.getMessage(target.messageId))).toMatchObject({ status: 'success', response: { answers: [{ selected: ['City'] }] }, resolvedOn: PHONE });
    expect((await current.laptop.host.store.listMessages(target.conversationId)).filter((message) => message.role === 'assistant')).toHaveLength(2);
  });

  it('an empty message for a conversation the laptop runs is refused on the phone, and nothing is proposed', async () => {
    const current = await world(8);
    const target = await askOnLaptop(current);
    const written = current.phoneMirror.local.documents.size;
    await expect(current.phone.send({ type: 'message.send', conversationId: target.conversationId, text: '   ' })).rejects.toMatchObject({ reason: 'message_empty' });
    // No proposal was written to the phone's mirror (the server hears only of what is written there).
    expect(current.phoneMirror.local.documents.size).toBe(written);
  });

  it('a proposal of a command only the runner gives, or for another conversation, is refused: nothing changes', async () => {
    const current = await world(7);
    const target = await askOnLaptop(current);
    const { id: other } = await current.laptop.send({ type: 'conversation.create', title: 'Other' });
    const proposals = [
      { type: 'conversation.rename', conversationId: target.conversationId, title: 'Renamed by the phone' },
      { type: 'conversation.delete', conversationId: target.conversationId },
      { type: 'settings.update', conversationId: target.conversationId, script: '[]' },
      { type: 'run.stop', conversationId: other },
    ];
    for (const command of proposals) await current.phone.host.sync.propose(target.conversationId, command);
    await current.replicator.settle(async () => (await outcomesOn(current.server)).length === proposals.length);
    expect((await outcomesOn(current.server)).map((outcome) => outcome?.reason).sort()).toEqual(['not_proposable', 'not_proposable', 'not_proposable', 'not_proposable']);
    expect(await current.laptop.host.store.getConversation(target.conversationId)).toMatchObject({ title: 'Plan a trip', runState: 'awaiting_input' });
    expect((await current.laptop.send({ type: 'settings.get' })).script).not.toBe('[]');
  });
});

/** The outcomes the runner wrote on the server's proposals, one per proposal that has one. */
async function outcomesOn(server: SimulatedServer) {
  const outcomes = [];
  for (const { document } of server.documents.values()) {
    const payload = document.ct && document.iv ? SyncPayload.parse(JSON.parse(await open(await keys(), { iv: document.iv, ct: document.ct }))) : undefined;
    if (payload?.kind === 'proposal' && payload.proposal.outcome) outcomes.push(payload.proposal.outcome);
  }
  return outcomes;
}

import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { LAPTOP, SimulatedServer, simulatedDevices, testKeys } from './sync-simulation';
import { ECHO, approvalIn, callIn, countingTool, toolCallWaitingOnPhone } from './sync-tool-calls';
import type { Proposal, SyncPayload } from '../../src/schema/sync/sync';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { open } from '../../src/worker/sync/documents/sync-crypto';

// The security issue's first attack: the sync server is hostile. It keeps every revision it was sent and can write an old
// one back as a new revision. A proposal the runner applied once (an Allow, a Stop) must never act again, and an Allow
// given for one request must never decide another (a rerun after an interruption asks for an Allow of its own).


async function payloadOf(document: EncryptedDocument): Promise<SyncPayload | undefined> {
  if (!document.ct || !document.iv) return undefined;
  return JSON.parse(await open(await testKeys(), { iv: document.iv, ct: document.ct })) as SyncPayload;
}

/** The proposal documents the server holds now, decrypted as only the devices can. */
async function proposalsOn(server: SimulatedServer): Promise<Array<{ document: EncryptedDocument; proposal: Proposal }>> {
  const found: Array<{ document: EncryptedDocument; proposal: Proposal }> = [];
  for (const { document } of server.documents.values()) {
    const payload = await payloadOf(document);
    if (payload?.kind === 'proposal') found.push({ document: structuredClone(document), proposal: payload.proposal });
  }
  return found;
}

/** What the attacker does: the server writes an old revision's body back over the document as its newest revision. */
function replay(server: SimulatedServer, old: EncryptedDocument): void {
  const current = server.documents.get(old._id)!;
  expect(server.put({ ...old, _rev: current.document._rev })).toBe('ok');
}

/**
 * The laptop runs a conversation whose tool call the phone allowed; the call is under way on the laptop (counted once)
 * when the laptop's browser closes. `first` is the proposal document as the phone first wrote it (no outcome).
 */
async function allowedOnPhoneThenLaptopClosed(seed: number) {
  const tool = countingTool({ hold: true });
  const laptopDatabase = uniqueDatabaseName();
  const { server, laptopMirror, replicator, laptop, phone, phoneMirror, target } = await toolCallWaitingOnPhone(seed, { laptop: { databaseName: laptopDatabase, tools: [tool.tool] } });
  await phone.send({ type: 'request.resolve', ...target, approved: true });
  const firstProposals = await Promise.all([...phoneMirror.local.documents.values()].map(async (stored) => ({ document: structuredClone(stored.document), payload: await payloadOf(stored.document) })));
  const firstRevision = firstProposals.find((entry) => entry.payload?.kind === 'proposal')!.document;
  await replicator.settle(async () => tool.runs.length === 1 && (await proposalsOn(server)).every(({ proposal }) => proposal.outcome?.status === 'applied'));
  expect(callIn(await laptop.host.store.getMessage(target.messageId))?.status).toBe('running');

  // The browser is closed mid-call and opened again: a new worker over the same database and the same mirror.
  await laptop.host.sync.detach();
  laptop.close();
  const reopened: TestTab = await openTab({ databaseName: laptopDatabase, locks: memoryLocks(), tools: [tool.tool] });
  await reopened.host.runs.recoverAll();
  const engine = await reopened.host.sync.attach(laptopMirror, await testKeys(), LAPTOP);
  const repaired = await reopened.host.store.getMessage(target.messageId);
  expect(callIn(repaired)).toMatchObject({ status: 'interrupted' });
  expect(approvalIn(repaired)).toMatchObject({ kind: 'rerun', status: 'pending' });
  // From here a call returns at once, so a wrongly applied Allow would run and end (and be counted).
  tool.state.hold = false;
  /** The laptop read the replayed revision: it refused it, or (the attack) it ran the call again. */
  const sawReplay = async () => (engine.refusedProposals > 0 || tool.runs.length > 1) && !reopened.host.runs.isRunningHere(target.conversationId);
  return { server, replicator, laptop: reopened, phone, tool, target, firstRevision, engine, sawReplay };
}

describe('a hostile sync server replays old revisions', { timeout: 60_000 }, () => {
  it('an Allow written back after the laptop restarted does not run the interrupted call again: "Run again" waits for a click', async () => {
    const world = await allowedOnPhoneThenLaptopClosed(31);
    replay(world.server, world.firstRevision);
    // The laptop reads the replayed revision (the server's newest) and refuses it; nothing else moves.
    await world.replicator.settle(world.sawReplay);
    expect(world.tool.runs).toEqual(['a.txt']);
    const stored = await world.laptop.host.store.getMessage(world.target.messageId);
    expect(callIn(stored)).toMatchObject({ status: 'interrupted' });
    expect(approvalIn(stored)).toMatchObject({ kind: 'rerun', status: 'pending' });
    expect(approvalIn(stored)?.resolvedOn).toBeUndefined();
    expect((await world.laptop.host.store.getConversation(world.target.conversationId))?.runState).toBe('awaiting_input');
  });

  it('the rerun runs once the phone allows that rerun, and the replayed old Allow still does nothing after it', async () => {
    const world = await allowedOnPhoneThenLaptopClosed(32);
    await world.replicator.settle(async () => approvalIn(await world.phone.host.store.getMessage(world.target.messageId))?.kind === 'rerun');
    const result = await world.phone.send({ type: 'request.resolve', ...world.target, approved: true });
    expect(result).toMatchObject({ proposedTo: LAPTOP });
    await world.replicator.settle(async () => world.tool.runs.length === 2 && !world.laptop.host.runs.isRunningHere(world.target.conversationId));
    replay(world.server, world.firstRevision);
    await world.replicator.settle(async () => (world.engine.refusedProposals > 0 || world.tool.runs.length > 2) && !world.laptop.host.runs.isRunningHere(world.target.conversationId));
    expect(world.tool.runs).toEqual(['a.txt', 'a.txt']);
  });
});

describe('a hostile sync server replays a Stop', { timeout: 60_000 }, () => {
  it('a Stop written back after the laptop restarted does not stop its next run', async () => {
    const laptopDatabase = uniqueDatabaseName();
    const slow = script([{ text: 'x'.repeat(400) }, { text: 'y'.repeat(400) }], { chunkDelayMs: 5, chunkSize: 1 });
    const { server, laptopMirror, replicator, laptop, phone, phoneMirror } = await simulatedDevices(41, {
      tabs: { laptop: { databaseName: laptopDatabase } },
      prepare: async (laptop) => void (await laptop.send({ type: 'settings.update', script: slow })),
    });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'message.send', conversationId, text: 'go' });
    await replicator.settle(async () => (await phone.host.store.getConversation(conversationId))?.runState === 'running');
    expect(await phone.send({ type: 'run.stop', conversationId })).toEqual({ proposedTo: LAPTOP, conversationId });
    const stop = (await Promise.all([...phoneMirror.local.documents.values()].map(async (stored) => ({ document: structuredClone(stored.document), payload: await payloadOf(stored.document) })))).find((entry) => entry.payload?.kind === 'proposal')!.document;
    await replicator.settle(async () => (await laptop.host.store.getConversation(conversationId))?.runState !== 'running' && !laptop.host.runs.isRunningHere(conversationId));
    const stopped = await laptop.host.store.listMessages(conversationId);
    expect(stopped.at(-1)?.status).toBe('stopped');

    await laptop.host.sync.detach();
    laptop.close();
    const reopened = await openTab({ databaseName: laptopDatabase, locks: memoryLocks() });
    const engine = await reopened.host.sync.attach(laptopMirror, await testKeys(), LAPTOP);
    await reopened.send({ type: 'message.send', conversationId, text: 'again' });
    replay(server, stop);
    await replicator.settle(async () => engine.refusedProposals > 0 || (await reopened.host.store.getConversation(conversationId))?.runState !== 'running');
    await waitForRunState(reopened, conversationId, ['idle', 'interrupted', 'error'], 20_000);
    const last = (await reopened.host.store.listMessages(conversationId)).at(-1);
    expect(last).toMatchObject({ role: 'assistant', status: 'complete' });
    expect(engine.refusedProposals).toBe(1);
  });
});

describe('proposals that name no request', { timeout: 60_000 }, () => {
  it('an Allow without a binding (an older device, or a replay of one) is refused in its outcome, and nothing runs', async () => {
    const tool = countingTool();
    const { server, replicator, laptop, phone, target } = await toolCallWaitingOnPhone(51, { laptop: { tools: [tool.tool] } });
    const { conversationId } = target;
    // What a build before the binding wrote: an Allow that does not say which request it decides.
    await phone.host.sync.propose(conversationId, { type: 'request.resolve', conversationId, messageId: target.messageId, requestId: target.requestId, approved: true });
    await replicator.settle(async () => (await proposalsOn(server)).some(({ proposal }) => proposal.outcome?.reason === 'outdated_device'));
    expect(tool.runs).toEqual([]);
    expect(approvalIn(await laptop.host.store.getMessage(target.messageId))?.status).toBe('pending');
  });
});


/** The server's document for a record, found by what it decrypts to. */
async function documentOf(server: SimulatedServer, matches: (payload: SyncPayload) => boolean): Promise<EncryptedDocument> {
  for (const { document } of server.documents.values()) {
    const payload = await payloadOf(document).catch(() => undefined);
    if (payload && matches(payload)) return structuredClone(document);
  }
  throw new Error('no such document on the server');
}

describe('a hostile sync server changes records', { timeout: 60_000 }, () => {
  async function renamedOnLaptop(seed: number) {
    const world = await simulatedDevices(seed, { prepare: async (laptop) => void (await laptop.send({ type: 'settings.update', script: script([ECHO]) })) });
    const { id: conversationId } = await world.laptop.send({ type: 'conversation.create' });
    await world.laptop.send({ type: 'conversation.rename', conversationId, title: 'First title' });
    await world.replicator.settle(async () => (await world.phone.host.store.getConversation(conversationId))?.title === 'First title');
    const old = await documentOf(world.server, (payload) => payload.kind === 'conversation' && payload.conversation.title === 'First title');
    await world.laptop.send({ type: 'conversation.rename', conversationId, title: 'Second title' });
    await world.replicator.settle(async () => (await world.phone.host.store.getConversation(conversationId))?.title === 'Second title');
    const phoneEngine = await world.phone.host.sync.attach(world.phoneMirror, await testKeys(), { id: 'device-phone', name: 'Phone' });
    return { ...world, conversationId, old, phoneEngine };
  }

  it('an older conversation record written back does not roll the title back on a device that does not run it, and is counted', async () => {
    const world = await renamedOnLaptop(61);
    replay(world.server, world.old);
    await world.replicator.settle(async () => world.phoneEngine.refused() !== undefined || (await world.phone.host.store.getConversation(world.conversationId))?.title !== 'Second title');
    expect((await world.phone.host.store.getConversation(world.conversationId))?.title).toBe('Second title');
    expect(world.phoneEngine.refused()).toMatchObject({ replayed: 1, unreadable: 0, misplaced: 0 });
  });

  it('a record copied under another record’s id, and a flipped byte, are refused and counted; nothing changes', async () => {
    const world = await renamedOnLaptop(62);
    const { id: otherId } = await world.laptop.send({ type: 'conversation.create' });
    await world.laptop.send({ type: 'conversation.rename', conversationId: otherId, title: 'Other' });
    await world.replicator.settle(async () => (await world.phone.host.store.getConversation(otherId))?.title === 'Other');
    const target = await documentOf(world.server, (payload) => payload.kind === 'conversation' && payload.conversation.id === otherId);
    const current = await documentOf(world.server, (payload) => payload.kind === 'conversation' && payload.conversation.id === world.conversationId);
    // The first conversation's sealed record, put where the other conversation's belongs.
    expect(world.server.put({ ...target, iv: current.iv, ct: current.ct })).toBe('ok');
    await world.replicator.settle(async () => (world.phoneEngine.refused()?.misplaced ?? 0) > 0);
    const flipped = await documentOf(world.server, (payload) => payload.kind === 'conversation' && payload.conversation.id === world.conversationId);
    const bytes = Buffer.from(flipped.ct!, 'base64');
    bytes[bytes.length - 20]! ^= 1;
    expect(world.server.put({ ...flipped, ct: bytes.toString('base64') })).toBe('ok');
    await world.replicator.settle(async () => (world.phoneEngine.refused()?.unreadable ?? 0) > 0);
    expect(world.phoneEngine.refused()).toMatchObject({ misplaced: 1, unreadable: 1 });
    expect((await world.phone.host.store.getConversation(otherId))?.title).toBe('Other');
    expect((await world.phone.host.store.getConversation(world.conversationId))?.title).toBe('Second title');
    // The warning stays until the person clears it.
    world.phoneEngine.clearRefusals();
    expect(world.phoneEngine.refused()).toBeUndefined();
  });
});

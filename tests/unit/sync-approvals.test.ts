import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { script, waitForRunState, type TestTab } from './host-harness';
import { LAPTOP, PHONE, SimulatedServer, testKeys } from './sync-simulation';
import { CALL, ECHO, approvalIn, callIn, countingTool, toolCallWaitingOnPhone } from './sync-tool-calls';
import type { Message } from '../../src/schema/records';
import type { Block } from '../../src/schema/messages/blocks';
import { open } from '../../src/worker/sync/documents/sync-crypto';
import type { Proposal } from '../../src/schema/sync/sync';

// Sync's authority rule (docs/architecture.md): a tool approved on the phone runs on the laptop, once; nothing the laptop approved
// runs on the phone after a take-over unless the phone's user allows it there.

const keys = testKeys;


async function devices(seed: number) {
  const laptopTool = countingTool();
  const phoneTool = countingTool();
  return { ...(await toolCallWaitingOnPhone(seed, { laptop: { tools: [laptopTool.tool] }, phone: { tools: [phoneTool.tool] } })), laptopTool, phoneTool };
}

async function proposalsOn(server: SimulatedServer): Promise<Proposal[]> {
  const proposals: Proposal[] = [];
  for (const { document } of server.documents.values()) {
    if (!document.ct || !document.iv) continue;
    const payload = JSON.parse(await open(await keys(), { iv: document.iv, ct: document.ct })) as { kind: string; proposal?: Proposal };
    if (payload.kind === 'proposal') proposals.push(payload.proposal!);
  }
  return proposals;
}

async function lastOf(tab: TestTab, conversationId: string) {
  return (await tab.host.store.listMessages(conversationId)).at(-1);
}

describe('tool approvals across devices (sync)', { timeout: 60_000 }, () => {
  it('Allow on the phone runs the call on the laptop once, however often the proposal arrives', async () => {
    const world = await devices(7);
    const { phone, laptop, target } = world;
    expect(await phone.send({ type: 'request.resolve', ...target, approved: true })).toMatchObject({ proposedTo: LAPTOP });
    // Pressed again (a double tap, a retry): the same proposal, applied once.
    await phone.send({ type: 'request.resolve', ...target, approved: true });
    await world.replicator.settle(async () => {
      const [here, there] = await Promise.all([lastOf(laptop, target.conversationId), lastOf(phone, target.conversationId)]);
      return here?.role === 'assistant' && here.status === 'complete' && !laptop.host.runs.isRunningHere(target.conversationId) && isDeepStrictEqual(here, there) && callIn(await laptop.host.store.getMessage(target.messageId))?.status === 'success';
    });
    expect(world.laptopTool.runs).toEqual(['a.txt']);
    expect(world.phoneTool.runs).toEqual([]);
    expect(callIn(await phone.host.store.getMessage(target.messageId))).toMatchObject({ status: 'success' });
    expect(approvalIn(await phone.host.store.getMessage(target.messageId))).toMatchObject({ status: 'success', resolvedOn: PHONE });
  });

  it("Allow on the phone for arguments that no longer match the laptop's call is refused: nothing runs", async () => {
    const world = await devices(8);
    const { phone, laptop, target } = world;
    // The phone's copy is altered after it arrived (what a forged or stale record looks like): the user saw other arguments.
    const message = (await phone.host.store.getMessage(target.messageId))!;
    await phone.host.store.applyRemote({ messages: [{ ...message, updatedAt: message.updatedAt + 1, blocks: message.blocks.map((block) => (block.type === 'tool_call' ? { ...block, args: { path: 'other.txt' } } : block)) }] });
    await phone.send({ type: 'request.resolve', ...target, approved: true });
    // The laptop read the proposal and wrote its refusal back (decrypted here with the user's key).
    await world.replicator.settle(async () => (await proposalsOn(world.server)).some((proposal) => proposal.outcome?.reason === 'arguments_changed'));
    expect(world.laptopTool.runs).toEqual([]);
    expect(approvalIn(await laptop.host.store.getMessage(target.messageId))?.status).toBe('pending');
  });

  it('a call the laptop approved but had not run asks again on the phone after "Continue on this device": it never runs by itself', async () => {
    const world = await devices(9);
    const { phone, laptop, target } = world;
    // The laptop's record says "approved, queued" (the laptop closed before running it), and the phone has that record.
    const stored = (await laptop.host.store.getMessage(target.messageId))!;
    const approvedUnrun: Message = { ...stored, updatedAt: stored.updatedAt + 1, blocks: stored.blocks.map((block): Block => (block.type === 'request' && block.kind === 'permission' ? { ...block, status: 'success', resolution: 'approved', resolvedAt: 1 } : block)) };
    await phone.host.store.applyRemote({ messages: [approvedUnrun] });
    await laptop.host.sync.detach();
    world.replicator.mirrors.splice(0, 1);
    await phone.send({ type: 'conversation.takeOver', conversationId: target.conversationId });
    await phone.send({ type: 'settings.update', script: script([CALL, ECHO, ECHO]) });
    await phone.send({ type: 'conversation.setProfile', conversationId: target.conversationId, profileId: (await phone.send({ type: 'settings.get' })).defaultProfileId });
    expect(approvalIn(await phone.host.store.getMessage(target.messageId))?.status).toBe('pending');
    expect((await phone.host.store.getConversation(target.conversationId))?.runState).toBe('awaiting_input');
    await phone.send({ type: 'run.continue', conversationId: target.conversationId }).catch(() => undefined);
    expect(world.phoneTool.runs).toEqual([]);
    // Allowed here, by this device's user: it runs here, once.
    await phone.send({ type: 'request.resolve', ...target, approved: true });
    await waitForRunState(phone, target.conversationId, ['idle']);
    expect(world.phoneTool.runs).toEqual(['a.txt']);
    expect(world.laptopTool.runs).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAPTOP, SimulatedMirror, simulatedDevices, testKeys } from './sync-simulation';
import { isPendingRequest, requestIdOf } from '../../src/core/requests/request-ids';
import type { Conversation, Message } from '../../src/schema/records';
import { upgradeBlocks } from '../../src/schema/messages/upgrade-blocks';
import type { SyncPayload } from '../../src/schema/sync/sync';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import { documentId } from '../../src/worker/sync/documents/sync-crypto';

// The records of the request fixture (tests/unit/request-fixture-writer.ts, written by the build before requests had
// one shape), sent as that build's laptop sends what it runs: a runner, a conversation and a message document each.
const stored = JSON.parse(readFileSync(new URL('../fixtures/requests/database-v4.json', import.meta.url), 'utf8')) as { conversations: Conversation[]; messages: Message[] };

async function writeAsOldLaptop(mirror: SimulatedMirror): Promise<void> {
  const keys = await testKeys();
  const sealed = new SealedDocuments(mirror, keys);
  const write = async (kind: string, id: string, payload: SyncPayload) => sealed.write(await documentId(keys, kind, id), payload);
  for (const conversation of stored.conversations) {
    await write('runner', conversation.id, { kind: 'runner', runner: { conversationId: conversation.id, device: LAPTOP, epoch: 1, since: conversation.createdAt } });
    await write('conversation', conversation.id, { kind: 'conversation', conversation, writer: LAPTOP.id, epoch: 1 });
  }
  for (const message of stored.messages) await write('message', message.id, { kind: 'message', message, writer: LAPTOP.id, epoch: 1 });
}

describe('records a device on the build before one request shape sends', () => {
  it('arrive on this device with every request as decided there, and what waits there is listed here', async () => {
    const world = await simulatedDevices(31);
    const oldLaptop = new SimulatedMirror(world.server);
    await writeAsOldLaptop(oldLaptop);
    world.replicator.mirrors.push(oldLaptop);
    const titles = (requests: Array<{ conversationTitle: string }>) => requests.map((request) => request.conversationTitle).sort();
    await world.replicator.settle(async () => titles(await world.phone.send({ type: 'requests.listPending' })).length === 3);
    expect(titles(await world.phone.send({ type: 'requests.listPending' }))).toEqual(['pending approval', 'pending elicitation', 'pending question']);
    for (const message of stored.messages) {
      const here = await world.phone.host.store.getMessage(message.id);
      // Upgraded on receipt (see upgradeBlocks): stored in the one request shape, with the same ids and states.
      expect(here?.blocks.map((block) => [block.type, requestIdOf(block), isPendingRequest(block)])).toEqual(upgradeBlocks(message).blocks.map((block) => [block.type, requestIdOf(block), isPendingRequest(block)]));
      for (const block of here?.blocks ?? []) expect(['text', 'reasoning', 'tool_call', 'request', 'error']).toContain(block.type);
      expect(here?.blocks.some((block) => 'approval' in block)).toBe(false);
    }
  });
});

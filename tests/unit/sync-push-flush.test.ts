import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import { LAPTOP, SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import { documentId } from '../../src/worker/sync/documents/sync-crypto';

// The push queue's flush resolves once the push it hurries has run (docs/architecture.md, "Sync"): what is noted is in
// the mirror by then. It used to resolve before that push ran, so sync turned off just after a write stopped the engine
// with the write still waiting, and it never reached the mirror (nor the server, nor the other devices) until the next
// "Turn on sync".

describe('the push queue’s flush (sync)', { timeout: 60_000 }, () => {
  it('a write made just before sync is turned off is in the mirror once the engine stopped', async () => {
    const keys = await testKeys();
    const mirror = new SimulatedMirror(new SimulatedServer());
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await laptop.host.sync.attach(mirror, keys, LAPTOP);
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'conversation.rename', conversationId, title: 'Lisbon in May' });
    // Within the push queue's gathering delay: nothing of the rename has been sealed yet.
    await laptop.host.sync.detach();
    const document = await mirror.get(await documentId(keys, 'conversation', conversationId));
    const payload = document && (await new SealedDocuments(mirror, keys).read(document));
    expect(payload?.kind === 'conversation' && payload.conversation.title).toBe('Lisbon in May');
  });
});

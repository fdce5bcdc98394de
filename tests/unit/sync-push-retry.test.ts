import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import { randomFrom, SimulatedMirror, SimulatedReplicator, SimulatedServer } from './sync-simulation';
import { newKeyDocument } from '../../src/worker/sync/documents/sync-crypto';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';

// "it never loses a word". A write the device's mirror refuses (its IndexedDB full for a moment, a conflict that
// kept coming back) used to drop the rest of its batch until the next start; it is retried instead.

/** A mirror whose next `failures` writes throw, as PouchDB does when IndexedDB refuses one. */
class RefusingMirror extends SimulatedMirror {
  failures = 0;
  override async put(document: EncryptedDocument): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw Object.assign(new Error('QuotaExceededError'), { status: 500 });
    }
    return super.put(document);
  }
}

describe('a write the mirror refuses (sync)', { timeout: 60_000 }, () => {
  it('is retried, with the rest of its batch, and reaches the other device', async () => {
    const keys = (await newKeyDocument('correct horse battery staple', 100_000)).keys;
    const server = new SimulatedServer();
    const laptopMirror = new RefusingMirror(server);
    const phoneMirror = new SimulatedMirror(server);
    const replicator = new SimulatedReplicator(server, [laptopMirror, phoneMirror], randomFrom(7));
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await laptop.host.sync.attach(laptopMirror, keys, { id: 'device-laptop', name: 'Laptop' });
    await phone.host.sync.attach(phoneMirror, keys, { id: 'device-phone', name: 'Phone' });
    // Named at once: an untouched new conversation is cleaned up when the next one is made.
    const first = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'conversation.rename', conversationId: first.id, title: 'Trip one' });
    const second = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'conversation.rename', conversationId: second.id, title: 'Trip two' });
    await replicator.settle(async () => (await phone.host.store.getConversation(second.id)) !== undefined);
    // Both renames are sealed in one batch; the first write of it is refused.
    laptopMirror.failures = 1;
    await laptop.send({ type: 'conversation.rename', conversationId: first.id, title: 'Lisbon' });
    await laptop.send({ type: 'conversation.rename', conversationId: second.id, title: 'Porto' });
    await replicator.settle(async () => (await phone.host.store.getConversation(first.id))?.title === 'Lisbon' && (await phone.host.store.getConversation(second.id))?.title === 'Porto');
    expect(laptopMirror.failures).toBe(0);
  });
});

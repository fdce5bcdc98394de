import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName, type TestTab } from './host-harness';
import { LAPTOP, PHONE, randomFrom, SimulatedMirror, SimulatedReplicator, SimulatedServer, testKeys } from './sync-simulation';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { rekeyMirror } from '../../src/worker/sync/mirror/rekey-mirror';
import { newKeyDocument } from '../../src/worker/sync/documents/sync-crypto';

// README, "Sync between your devices": a server set up again under another key (it lost its data, and a new device made
// a new key document with the same passphrase). A device that joins the new key with its passphrase uploads again what
// its mirror holds: its own conversations and what it mirrors of others' — here the phone's, which never comes back.

const TABLET = { id: 'device-tablet', name: 'Tablet' };

/** A simulated mirror that lists what it holds, as the PouchDB one does for a re-key. */
class ListedMirror extends SimulatedMirror {
  async *documents(): AsyncIterable<EncryptedDocument[]> {
    yield [...this.local.documents.values()].map((stored) => structuredClone(stored.document)).filter((document) => !document._deleted);
  }
}

async function named(tab: TestTab, title: string): Promise<string> {
  const { id } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'conversation.rename', conversationId: id, title });
  return id;
}

describe('joining a server set up again under another key (sync)', { timeout: 60_000 }, () => {
  it('uploads this device’s conversations and those it mirrors of others’, so a new device sees them all', async () => {
    const oldKeys = await testKeys();
    const oldServer = new SimulatedServer();
    const laptopOld = new ListedMirror(oldServer);
    const phoneMirror = new SimulatedMirror(oldServer);
    const before = new SimulatedReplicator(oldServer, [laptopOld, phoneMirror], randomFrom(11));
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await laptop.host.sync.attach(laptopOld, oldKeys, LAPTOP);
    await phone.host.sync.attach(phoneMirror, oldKeys, PHONE);
    const lisbon = await named(laptop, 'Lisbon');
    const porto = await named(phone, 'Porto');
    await before.settle(async () => (await laptop.host.store.getConversation(porto))?.title === 'Porto' && (await phone.host.store.getConversation(lisbon))?.title === 'Lisbon');

    // The server loses everything; a tablet sets it up again with the same passphrase, another salt, and writes.
    const newKeys = (await newKeyDocument('correct horse battery staple', 100_000)).keys;
    const newServer = new SimulatedServer();
    const tabletMirror = new SimulatedMirror(newServer);
    const tablet = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const tabletEngine = await tablet.host.sync.attach(tabletMirror, newKeys, TABLET);
    const kyoto = await named(tablet, 'Kyoto');

    // The laptop joins the new key: its mirror sealed again under it, and sync started over the new mirror.
    await laptop.host.sync.detach();
    const laptopNew = new SimulatedMirror(newServer);
    expect(await rekeyMirror({ mirror: laptopOld, keys: oldKeys }, { mirror: laptopNew, keys: newKeys }, LAPTOP.id)).toBeGreaterThan(0);
    const laptopEngine = await laptop.host.sync.attach(laptopNew, newKeys, LAPTOP);
    const after = new SimulatedReplicator(newServer, [laptopNew, tabletMirror], randomFrom(12));
    await after.settle(
      async () =>
        (await tablet.host.store.getConversation(lisbon))?.title === 'Lisbon' &&
        (await tablet.host.store.getConversation(porto))?.title === 'Porto' &&
        (await laptop.host.store.getConversation(kyoto))?.title === 'Kyoto',
    );
    // Who runs what travelled too: the phone's conversation still runs on the phone, the laptop's on the laptop.
    expect(tablet.host.sync.runnerElsewhere(porto)).toEqual(PHONE);
    expect(tablet.host.sync.runnerElsewhere(lisbon)).toEqual(LAPTOP);
    expect(laptop.host.sync.runnerElsewhere(lisbon)).toBeUndefined();
    // Nothing on the new server is under the old key: no device refused anything.
    for (const engine of [laptopEngine, tabletEngine]) expect(engine.refused()).toBeUndefined();
  });
});

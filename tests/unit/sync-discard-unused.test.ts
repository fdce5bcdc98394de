import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import { simulatedDevices } from './sync-simulation';
import { openParleyDatabase } from '../../src/worker/store/database';
import { createFirstScreen } from '../../src/worker/first-screen/first-screen';
import { SYNC_KEY } from '../../src/worker/sync/device';

// A conversation never used (no message, untitled, idle) is discarded when another is created or the list is tidied
// (unused-conversations.ts). Another device's conversation arrives as its first record, before its messages and its
// title: the device that receives it must not take it for one of its own unused ones. Discarded, its removal synced as
// a deletion: the other devices ignored everything of it from then on, and its runner deleted its own copy.

describe('a conversation another device runs is never discarded as unused (sync)', { timeout: 60_000 }, () => {
  for (const command of [{ type: 'conversation.create' }, { type: 'conversation.discardUnused' }] as const) {
    it(`while its first record has arrived without its messages (${command.type} on the other device)`, async () => {
      const { laptop, phone, phoneMirror, replicator } = await simulatedDevices(41);
      const { id: porto } = await phone.send({ type: 'conversation.create' });
      await replicator.settle(async () => (await laptop.host.store.getConversation(porto)) !== undefined);
      // The phone goes away before its title reaches the server; the laptop tidies its list meanwhile.
      replicator.setOffline(phoneMirror, true);
      await phone.send({ type: 'conversation.rename', conversationId: porto, title: 'Porto' });
      await laptop.send(command);
      expect(await laptop.host.store.getConversation(porto)).toBeDefined();
      replicator.setOffline(phoneMirror, false);
      await replicator.settle(async () => (await laptop.host.store.getConversation(porto))?.title === 'Porto');
      expect((await phone.host.store.getConversation(porto))?.title).toBe('Porto');
    });
  }
});

describe('a worker starting with sync on discards nothing until sync has read who runs what', { timeout: 60_000 }, () => {
  it('the first screen leaves the clean-up to the full host, which waits for sync', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const before = await openTab({ databaseName, locks });
    // As another device's conversation arrives: its first record, untitled, before its messages and who runs it.
    await before.send({ type: 'conversation.create', conversationId: 'arrived' });
    const database = await openParleyDatabase(databaseName);
    await database.put('settings', { url: 'http://127.0.0.1:9/parley' }, SYNC_KEY);
    before.close();
    const worker = createFirstScreen({
      database,
      locks,
      newId: () => 'id',
      now: () => Date.now(),
      post: () => {},
      broadcast: () => {},
      prepareModel: () => {},
      loadHost: async () => (await openTab({ databaseName, locks })).host,
    });
    expect(await worker.handle({ type: 'conversation.discardUnused' })).toEqual({ removed: [] });
    const tab = await openTab({ databaseName, locks });
    expect(await tab.send({ type: 'conversation.create', conversationId: 'mine' })).toMatchObject({ id: 'mine' });
    expect(await tab.host.store.getConversation('arrived')).toBeDefined();
    // Sync off: the same look takes it.
    await database.delete('settings', SYNC_KEY);
    expect(await tab.send({ type: 'conversation.discardUnused', keep: 'mine' })).toEqual({ removed: ['arrived'] });
    tab.close();
    database.close();
  });
});

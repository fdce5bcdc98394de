import { describe, expect, it } from 'vitest';
import { simulatedDevices } from './sync-simulation';

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

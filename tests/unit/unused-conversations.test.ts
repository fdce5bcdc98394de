import { describe, expect, it } from 'vitest';
import { VIEW_LOCK_PREFIX } from '../../src/schema/limits';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';

/** Issue 21.16: a conversation opened and never used is not kept once its tab has left it. */
describe('unused conversations', () => {
  it('are removed when the page asks, except the one on screen, one another tab shows, and one with a draft', async () => {
    const locks = memoryLocks();
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks });
    await tab.send({ type: 'settings.update', defaultProfileId: 'scripted', script: script([{ text: 'Hi.' }]) });
    const left = await tab.send({ type: 'conversation.create', conversationId: 'left' });
    expect(left.id).toBe('left');
    const used = await tab.send({ type: 'conversation.create', conversationId: 'used' });
    await tab.send({ type: 'message.send', conversationId: used.id, text: 'Hello' });
    await waitForRunState(tab, used.id, ['idle']);
    // "left" went when "used" was created (the page no longer showed it). Each page holds a view lock on what it shows.
    await tab.send({ type: 'conversation.create', conversationId: 'drafted' });
    await tab.send({ type: 'conversation.saveDraft', conversationId: 'drafted', text: 'half a thought' });
    await tab.send({ type: 'conversation.create', conversationId: 'shown-elsewhere' });
    await locks.acquire(VIEW_LOCK_PREFIX + 'shown-elsewhere');
    await tab.send({ type: 'conversation.create', conversationId: 'abandoned' });
    const leaveAbandoned = await locks.acquire(VIEW_LOCK_PREFIX + 'abandoned');
    await tab.send({ type: 'conversation.create', conversationId: 'on-screen' });
    expect((await tab.send({ type: 'conversation.list' })).map((conversation) => conversation.id)).toContain('abandoned');
    leaveAbandoned();

    const { removed } = await tab.send({ type: 'conversation.discardUnused', keep: 'on-screen' });
    const remaining = (await tab.send({ type: 'conversation.list' })).map((conversation) => conversation.id).sort();
    expect(remaining).toEqual(['drafted', 'on-screen', 'shown-elsewhere', 'used']);
    expect(removed).toEqual(['abandoned']);
    expect(tab.events.filter((event) => event.type === 'conversation-deleted').map((event) => (event as { conversationId: string }).conversationId)).toContain('abandoned');

    // The page reloaded in Settings (nothing on screen): the one it had left is not kept.
    await tab.send({ type: 'conversation.discardUnused' });
    expect((await tab.send({ type: 'conversation.list' })).map((conversation) => conversation.id).sort()).toEqual(['drafted', 'shown-elsewhere', 'used']);
    tab.close();
  });

  it('are not listed among the largest conversations', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', defaultProfileId: 'scripted', script: script([{ text: 'Hi.' }]) });
    const used = await tab.send({ type: 'conversation.create', conversationId: 'used' });
    await tab.send({ type: 'message.send', conversationId: used.id, text: 'Hello' });
    await waitForRunState(tab, used.id, ['idle']);
    await tab.send({ type: 'conversation.create', conversationId: 'empty' });
    const sizes = await tab.send({ type: 'storage.conversationSizes', limit: 10 });
    expect(sizes.largest.map((entry) => entry.conversationId)).toEqual(['used']);
    expect(sizes.conversations).toBe(2);
    tab.close();
  });
});

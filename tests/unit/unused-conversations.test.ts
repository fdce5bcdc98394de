import { describe, expect, it } from 'vitest';
import { VIEW_LOCK_PREFIX } from '../../src/schema/limits';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { openParleyDatabase, type ParleyDatabase } from '../../src/worker/store/database';
import { discardUnused } from '../../src/worker/store/unused-conversations';
import { UNTITLED } from '../../src/schema/conversation-title';
import type { Conversation, Message } from '../../src/schema/records';

/** A conversation opened and never used is not kept once its tab has left it. */
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

  it('a conversation made while a clean-up looks for view locks is not taken by it, though it is stored first', async () => {
    // The page's start asks for a clean-up; a click made as it starts creates a conversation while that clean-up asks
    // which conversations tabs show, before the new view has taken its lock. It was discarded, and its view went home.
    const locks = memoryLocks();
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks });
    const heldNames = locks.heldNames.bind(locks);
    let clicked = false;
    locks.heldNames = async () => {
      const names = await heldNames();
      if (!clicked) {
        // The first look is the clean-up's (the creation looks too: it passes through).
        clicked = true;
        await tab.send({ type: 'conversation.create', conversationId: 'clicked' });
      }
      return names;
    };
    const { removed } = await tab.send({ type: 'conversation.discardUnused' });
    expect(removed).toEqual([]);
    expect((await tab.send({ type: 'conversation.list' })).map((conversation) => conversation.id)).toEqual(['clicked']);
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

/**
 * The page asks for this at every start, beside the first screen's reads. A readwrite transaction there
 * held those reads until it had committed, though there is rarely anything to remove: it now looks first, read-only.
 */
describe('discardUnused', () => {
  const conversation = (id: string, extra: Partial<Conversation> = {}): Conversation => ({ id, title: UNTITLED, createdAt: 1, updatedAt: 1, runState: 'idle', completedSteps: 0, ...extra });
  const message = (conversationId: string): Message => ({ id: `${conversationId}-m0`, conversationId, seq: 0, parentId: '', role: 'user', blocks: [{ type: 'text', text: 'Hello' }], status: 'complete', createdAt: 2, updatedAt: 2 });

  /** The database with every transaction's mode recorded, and `onLook` run as each read-only one begins. */
  async function recordedDatabase(onLook?: (database: ParleyDatabase) => void) {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const modes: string[] = [];
    const transaction = database.transaction.bind(database) as (...args: unknown[]) => unknown;
    (database as unknown as { transaction: (...args: unknown[]) => unknown }).transaction = (stores: unknown, mode?: unknown, ...rest: unknown[]) => {
      const begun = transaction(stores, mode, ...rest);
      modes.push(String(mode ?? 'readonly'));
      if ((mode ?? 'readonly') === 'readonly') onLook?.(database);
      return begun;
    };
    return { database, modes };
  }

  it('writes nothing when nothing is unused', async () => {
    const { database, modes } = await recordedDatabase();
    await database.put('conversations', conversation('used'));
    await database.put('messages', message('used'));
    await database.put('conversations', conversation('titled', { title: 'Trip plans' }));
    modes.length = 0;
    expect(await discardUnused(database, new Set(), 10)).toEqual([]);
    expect(modes).toEqual(['readonly']);
    expect((await database.getAll('conversations')).map((stored) => stored.id).sort()).toEqual(['titled', 'used']);
    database.close();
  });

  it('removes what it found unused, except what is kept, in one readwrite transaction', async () => {
    const { database, modes } = await recordedDatabase();
    await database.put('conversations', conversation('empty'));
    // Stored by an earlier version with its English placeholder as a title: as untitled.
    await database.put('conversations', conversation('empty-before', { title: 'New conversation' }));
    await database.put('conversations', conversation('on-screen'));
    await database.put('conversations', conversation('used'));
    await database.put('messages', message('used'));
    modes.length = 0;
    expect((await discardUnused(database, new Set(['on-screen']), 10)).sort()).toEqual(['empty', 'empty-before']);
    expect(modes).toEqual(['readonly', 'readwrite']);
    expect((await database.getAll('conversations')).map((stored) => stored.id).sort()).toEqual(['on-screen', 'used']);
    database.close();
  });

  it('takes only what was made before it was asked', async () => {
    const { database } = await recordedDatabase();
    await database.put('conversations', conversation('before', { createdAt: 9 }));
    await database.put('conversations', conversation('as-asked', { createdAt: 10 }));
    await database.put('conversations', conversation('after', { createdAt: 11 }));
    expect(await discardUnused(database, new Set(), 10)).toEqual(['before']);
    expect((await database.getAll('conversations')).map((stored) => stored.id).sort()).toEqual(['after', 'as-asked']);
    database.close();
  });

  it('keeps a conversation that got its first message between the look and the removal', async () => {
    let sent = false;
    // Begun right after the look's transaction: it runs after the look and commits before the removal's.
    const { database } = await recordedDatabase((opened) => {
      if (sent) return;
      sent = true;
      void opened.put('messages', message('racing'));
    });
    await database.put('conversations', conversation('racing'));
    await database.put('conversations', conversation('empty'));
    expect(await discardUnused(database, new Set(), 10)).toEqual(['empty']);
    expect((await database.getAll('conversations')).map((stored) => stored.id)).toEqual(['racing']);
    database.close();
  });
});

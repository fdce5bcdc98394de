import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPLIED_PROPOSAL_PREFIX, DATABASE_VERSION, isNewerDatabaseError, openParleyDatabase } from '../../src/worker/store/database';
import { claimProposal, pruneAppliedProposals } from '../../src/worker/sync/documents/applied-proposals';
import { uniqueDatabaseName } from './host-harness';

/** The settings of a version-5 database that applied three proposals, written by the build before version 6. */
const settingsV5 = JSON.parse(readFileSync(new URL('../fixtures/sync/settings-v5.json', import.meta.url), 'utf8')) as { version: number; nonces: string[]; settings: { key: string; value: unknown }[] };

/** Opens the database at `version` with raw calls, as a newer release of Parley in another tab would. */
function openNewer(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('blocked: the old connection did not step aside'));
  });
}

describe('a newer version in another tab', () => {
  it('closes this connection so the upgrade goes on, and says this tab is outdated', async () => {
    const name = uniqueDatabaseName();
    let outdated = 0;
    const database = await openParleyDatabase(name, DATABASE_VERSION, { onOutdated: () => (outdated += 1) });
    const newer = await openNewer(name, DATABASE_VERSION + 1);
    expect(newer.version).toBe(DATABASE_VERSION + 1);
    expect(outdated).toBe(1);
    // The old connection is closed: a command reaching it would fail, which is why the worker refuses commands first.
    expect(() => database.transaction('conversations')).toThrow();
    newer.close();
  });

  it('recognizes a database that is newer than this code when opening it', async () => {
    const name = uniqueDatabaseName();
    (await openNewer(name, DATABASE_VERSION + 1)).close();
    const error = await openParleyDatabase(name).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isNewerDatabaseError(error)).toBe(true);
    expect(isNewerDatabaseError(new Error('other'))).toBe(false);
  });
});

describe('version 3: versions of a message share its position', () => {
  it('keeps every message of a version-2 database, and then stores two versions at one position', async () => {
    const name = uniqueDatabaseName();
    const old = await openParleyDatabase(name, 2);
    const base = { conversationId: 'c', role: 'user' as const, status: 'complete' as const, createdAt: 0, updatedAt: 0 };
    await old.put('conversations', { id: 'c', title: 'Old', createdAt: 0, updatedAt: 0, runState: 'idle', completedSteps: 0 });
    await old.put('messages', { ...base, id: 'm0', seq: 0, blocks: [{ type: 'text', text: 'hello' }] });
    await old.put('messages', { ...base, id: 'm1', seq: 1, role: 'assistant', blocks: [{ type: 'text', text: 'hi' }] });
    // Version 2 refuses a second message at a position: that is what version 3 changes.
    await expect(old.put('messages', { ...base, id: 'm1b', seq: 1, parentId: 'm0', blocks: [] })).rejects.toThrow();
    old.close();

    const upgraded = await openParleyDatabase(name);
    expect(upgraded.version).toBe(DATABASE_VERSION);
    const range = IDBKeyRange.bound(['c', 0], ['c', Infinity]);
    expect((await upgraded.getAllFromIndex('messages', 'by-conversation', range)).map((message) => message.id)).toEqual(['m0', 'm1']);
    await upgraded.put('messages', { ...base, id: 'm1b', seq: 1, parentId: 'm0', role: 'assistant', blocks: [] });
    expect((await upgraded.getAllFromIndex('messages', 'by-conversation', range)).map((message) => message.id)).toEqual(['m0', 'm1', 'm1b']);
    upgraded.close();
  });
});

describe('version 4: files sent with messages', () => {
  it('keeps every record of a version-3 database, and then stores a message’s files, found by message and by conversation', async () => {
    const name = uniqueDatabaseName();
    const old = await openParleyDatabase(name, 3);
    const message = { id: 'm0', conversationId: 'c', seq: 0, parentId: '', role: 'user' as const, status: 'complete' as const, createdAt: 0, updatedAt: 0, blocks: [{ type: 'text' as const, text: 'hello' }] };
    await old.put('conversations', { id: 'c', title: 'Old', createdAt: 0, updatedAt: 0, runState: 'idle', completedSteps: 0 });
    await old.put('messages', message);
    expect([...old.objectStoreNames]).not.toContain('attachments');
    old.close();

    const upgraded = await openParleyDatabase(name);
    expect(upgraded.version).toBe(DATABASE_VERSION);
    expect(await upgraded.get('messages', 'm0')).toEqual(message);
    expect([...upgraded.transaction('attachments').store.indexNames].sort()).toEqual(['by-conversation', 'by-message']);
    const blob = new Blob(['a,b\n1,2'], { type: 'text/csv' });
    await upgraded.put('attachments', { id: 'a1', conversationId: 'c', messageId: 'm0', blob });
    expect((await upgraded.getAllFromIndex('attachments', 'by-message', 'm0')).map((file) => file.id)).toEqual(['a1']);
    expect(await (await upgraded.getFromIndex('attachments', 'by-conversation', 'c'))?.blob.text()).toBe('a,b\n1,2');
    upgraded.close();
  });
});

describe('version 6: one record per applied proposal', () => {
  const nonce = (index: number) => index.toString(16).padStart(32, '0');

  it('moves the nonces version 5 kept in one array to a record each: each still refused, the array gone', async () => {
    const name = uniqueDatabaseName();
    const old = await openParleyDatabase(name, settingsV5.version);
    // The settings store exactly as the build before version 6 wrote it (tests/fixtures/sync/settings-v5.json).
    for (const { key, value } of settingsV5.settings) await old.put('settings', value, key);
    old.close();

    const upgraded = await openParleyDatabase(name);
    expect(upgraded.version).toBe(DATABASE_VERSION);
    expect(await upgraded.get('settings', 'sync-applied-proposals')).toBeUndefined();
    expect(await upgraded.get('settings', 'device')).toEqual(settingsV5.settings.find(({ key }) => key === 'device')!.value);
    for (const applied of settingsV5.nonces) expect(await claimProposal(upgraded, applied, 5)).toBe(false);
    expect(await claimProposal(upgraded, nonce(3), 5)).toBe(true);
    expect(await claimProposal(upgraded, nonce(3), 6)).toBe(false);
    upgraded.close();
  });

  it('keeps the newest 10,000 when pruned, the migrated ones counted oldest', async () => {
    const name = uniqueDatabaseName();
    const old = await openParleyDatabase(name, 5);
    await old.put('settings', { nonces: [nonce(0), nonce(1)] }, 'sync-applied-proposals');
    old.close();
    const database = await openParleyDatabase(name);
    const transaction = database.transaction('settings', 'readwrite');
    await Promise.all(Array.from({ length: 9_999 }, (_, index) => transaction.store.put({ at: 1_000 + index }, `${APPLIED_PROPOSAL_PREFIX}${nonce(100 + index)}`)));
    await transaction.done;
    await pruneAppliedProposals(database);
    // 10,001 kept before: the oldest (migrated first) goes, the next migrated one and every later claim stay.
    expect(await claimProposal(database, nonce(0), 1)).toBe(true);
    expect(await claimProposal(database, nonce(1), 1)).toBe(false);
    expect(await claimProposal(database, nonce(100), 1)).toBe(false);
    database.close();
  });
});

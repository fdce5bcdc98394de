import { describe, expect, it } from 'vitest';
import { NOT_HERE_YET, readAttachmentContents } from '../../src/worker/attachments/attachment-files';
import type { RunNotice } from '../../src/schema/events';
import type { AttachmentMeta } from '../../src/schema/attachments/attachments';
import { WireError } from '../../src/schema/wire-error';
import { openParleyDatabase } from '../../src/worker/store/database';
import { uniqueDatabaseName } from './host-harness';

// A model step's files read back (attachment-files.ts): those not stored here are asked of sync, which may wait for them.

const meta = (id: string): AttachmentMeta => ({ id, name: `${id}.txt`, mimeType: 'text/plain', size: 5, kind: 'text' });

describe("a model step's files", () => {
  it('gives a stored file, one sync says is on its way as syncing, and leaves out one sync does not know', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    await database.put('attachments', { id: 'here', conversationId: 'c1', messageId: 'm1', blob: new Blob(['hello']) });
    const asked: string[] = [];
    const contents = await readAttachmentContents(database, [meta('here'), meta('coming'), meta('gone')], {
      fetch: async (id) => {
        asked.push(id);
        return id === 'coming' ? false : undefined;
      },
    });
    expect(asked).toEqual(['coming', 'gone']);
    expect(contents.get('here')).toEqual({ kind: 'text', text: 'hello' });
    expect(contents.get('coming')).toEqual({ kind: 'syncing', said: NOT_HERE_YET });
    expect(NOT_HERE_YET).toBe('[This file has not reached this device yet (it is still syncing from another device), so its content cannot be given.]');
    expect(contents.has('gone')).toBe(false);
    database.close();
  });

  it('says that the run waits only when the wait lasts, and clears it after', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const notices: Array<RunNotice | null> = [];
    const quick = await readAttachmentContents(database, [meta('a')], { fetch: async () => false, onWaiting: (notice) => notices.push(notice) });
    expect(quick.get('a')).toEqual({ kind: 'syncing', said: NOT_HERE_YET });
    expect(notices).toEqual([]);
    await readAttachmentContents(database, [meta('a')], { fetch: () => new Promise((resolve) => setTimeout(() => resolve(false), 800)), onWaiting: (notice) => notices.push(notice) });
    expect(notices).toEqual([{ kind: 'waiting_file', message: 'Waiting for a file still syncing from another device.' }, null]);
    database.close();
  });

  it("a file that cannot be stored (a full disk) fails the read and ends the other files' waits", async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const notices: Array<RunNotice | null> = [];
    let ended = false;
    const read = readAttachmentContents(database, [meta('waiting'), meta('full')], {
      fetch: (id, signal) =>
        id === 'full'
          ? new Promise((_, reject) => setTimeout(() => reject(new WireError({ code: 'storage_full', message: 'full' })), 500))
          : new Promise((resolve) => signal!.addEventListener('abort', () => ((ended = true), resolve(false)))),
      signal: new AbortController().signal,
      onWaiting: (notice) => notices.push(notice),
    });
    await expect(read).rejects.toMatchObject({ code: 'storage_full' });
    expect(ended).toBe(true);
    expect(notices.at(-1)).toBeNull();
    database.close();
  });
});

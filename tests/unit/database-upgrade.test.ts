import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { DATABASE_VERSION, isNewerDatabaseError, openParleyDatabase } from '../../src/worker/database';
import { uniqueDatabaseName } from './host-harness';

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

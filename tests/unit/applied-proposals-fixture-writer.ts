/**
 * Writes `tests/fixtures/sync/settings-v5.json` with the build it runs in: the `settings` store of a version-5 database
 * (the device, and the nonces of three proposals applied from other devices) as that build's own code wrote them
 * (`claimProposal`, `loadDevice`). Not part of the unit suite (its name is not `*.test.ts`): run it only to record a
 * build's data, with `npx vitest run --config tests/fixtures/sync/vitest.config.ts`. Committed fixtures are never
 * rewritten by a later build: `database-upgrade.test.ts` reads this one as the data a version-5 Parley left behind.
 */
import 'fake-indexeddb/auto';
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DATABASE_VERSION, openParleyDatabase } from '../../src/worker/store/database';
import { claimProposal } from '../../src/worker/sync/documents/applied-proposals';
import { loadDevice } from '../../src/worker/sync/device';
import { uniqueDatabaseName } from './host-harness';

const NONCES = ['4f1c2a9e0d7b4c6a8e3f5d2b1a0c9e8f', '9a8b7c6d5e4f30211203f4e5d6c7b8a9', 'c0ffee00c0ffee00c0ffee00c0ffee00'];

it('writes the settings of a version-5 database that applied three proposals', async () => {
  expect(DATABASE_VERSION).toBe(5);
  const database = await openParleyDatabase(uniqueDatabaseName());
  await loadDevice({ database, newId: () => 'device-laptop' });
  // The third argument (when, added by version 6) is what this file compiles against now; d3386d2's claimProposal ignores it.
  for (const nonce of NONCES) expect(await claimProposal(database, nonce, 1)).toBe(true);
  expect(await claimProposal(database, NONCES[0]!, 1)).toBe(false);
  const transaction = database.transaction('settings');
  const [keys, values] = await Promise.all([transaction.store.getAllKeys(), transaction.store.getAll()]);
  const settings = keys.map((key, index) => ({ key, value: values[index] }));
  writeFileSync(new URL('../fixtures/sync/settings-v5.json', import.meta.url), `${JSON.stringify({ _about: 'The settings store of a version-5 database, written by tests/unit/applied-proposals-fixture-writer.ts at d3386d2, the build before database version 6: the device and the nonces of three applied proposals.', version: DATABASE_VERSION, nonces: NONCES, settings }, null, 2)}\n`);
  database.close();
});

/**
 * Writes `tests/fixtures/sync/mirror-v1.json` with the build it runs in: what the build before segments (d65dc13, one
 * sealed document per message, format 1) left on a sync server and on a laptop that synced with it — the server's
 * documents, the laptop's mirror (documents with their revision histories, and its local values) and the laptop's
 * IndexedDB records, with the passphrase and key document that open them. Not part of the unit suite (its name is not
 * `*.test.ts`); run it only in a worktree of that commit (see tests/fixtures/sync/README.md). Committed fixtures are
 * never rewritten by a later build: tests/unit/sync-segments-fixture.test.ts reads them as the data an older Parley left.
 */
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { asDatabase, PouchDB, type RawDatabase } from './node-pouch';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { LAPTOP, PHONE } from './sync-simulation';
import { couchForMirrors } from './couch-for-mirrors';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver, type PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { newKeyDocument } from '../../src/worker/sync/documents/sync-crypto';
import { openParleyDatabase } from '../../src/worker/store/database';
import { toBase64 } from '../../src/core/base64';


const PASSPHRASE = 'correct horse battery staple';
/** The mirror's local values (never replicated) the build before kept: runner-book.ts, change-receiver.ts, attachment-sync.ts, settings-sync.ts, refusal-log.ts. */
const LOCAL_KEYS = ['state', 'since', 'attachments-held', 'setting-versions', 'refusals'];
const WAIT = { timeout: 60_000, interval: 200 };
const OUT = process.env.FIXTURE_OUT ?? new URL('../fixtures/sync/mirror-v1.json', import.meta.url);

const server = couchForMirrors();

/** Every leaf revision of every document, with its history (`_revisions`), in the database's order of changes. */
async function documentsOf(database: RawDatabase): Promise<unknown[]> {
  const changes = await database.changes({ since: 0, style: 'all_docs' });
  const documents: unknown[] = [];
  for (const change of changes.results) {
    const leaves = (await database.get(change.id, { open_revs: 'all', revs: true })) as Array<{ ok?: unknown }>;
    for (const leaf of leaves) if (leaf.ok) documents.push(leaf.ok);
  }
  return documents;
}

async function localValuesOf(database: RawDatabase): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const key of LOCAL_KEYS) {
    const found = (await database.get(`_local/${key}`).catch(() => undefined)) as { value?: unknown } | undefined;
    if (found) values[key] = found.value;
  }
  return values;
}

/** The laptop's IndexedDB records, store by store (a file's bytes as base64). */
async function recordsOf(databaseName: string) {
  const database = await openParleyDatabase(databaseName);
  const settings: Array<[string, unknown]> = [];
  for (let cursor = await database.transaction('settings').store.openCursor(); cursor; cursor = await cursor.continue()) settings.push([cursor.key, cursor.value]);
  const attachments = await Promise.all((await database.getAll('attachments')).map(async ({ blob, ...rest }) => ({ ...rest, type: blob.type, base64: toBase64(new Uint8Array(await blob.arrayBuffer())) })));
  const records = { version: database.version, conversations: await database.getAll('conversations'), messages: await database.getAll('messages'), profiles: await database.getAll('profiles'), settings, attachments };
  database.close();
  return records;
}

/** A small image: a PNG signature, then bytes that depend on their place. */
function imageBytes(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(3000);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7 + (index >> 5)) & 0xff;
  bytes.set([137, 80, 78, 71, 13, 10, 26, 10]);
  return bytes;
}

async function conversation(tab: TestTab, title: string, steps: unknown[], text: string, attachments?: Array<{ name: string; type: string; blob: Blob }>) {
  await tab.send({ type: 'settings.update', script: script(steps) });
  const { id } = await tab.send({ type: 'conversation.create' });
  await tab.send({ type: 'conversation.rename', conversationId: id, title });
  await tab.send({ type: 'message.send', conversationId: id, text, ...(attachments ? { attachments } : {}) });
  return id;
}

it('writes what the build before segments left on a server and a laptop', { timeout: 300_000 }, async () => {
  const url = await server.couch.createDatabase();
  const made = await newKeyDocument(PASSPHRASE, 100_000);
  const auth = { username: server.couch.username, password: server.couch.password };
  const remote = () => new PouchDB(url, { adapter: 'http', skip_setup: true, auth });
  await remote().put(made.document);
  const device = async (ref: typeof LAPTOP) => {
    const databaseName = uniqueDatabaseName();
    const tab = await openTab({ databaseName, locks: memoryLocks() });
    const local = new PouchDB(`mirror-${ref.id}`, { adapter: 'memory', auto_compaction: true });
    const mirror: PouchMirror = mirrorOver(asDatabase(local), asDatabase(remote()), { countAfterMs: 0 });
    server.mirrors.push(mirror);
    mirror.replicate(() => undefined);
    const engine = await tab.host.sync.attach(mirror, made.keys, ref);
    return { databaseName, tab, local, mirror, engine };
  };
  const laptop = await device(LAPTOP);
  const phone = await device(PHONE);

  // The laptop: a finished conversation, one waiting on a question, one with two files; the phone runs one of its own.
  const picnic = await conversation(laptop.tab, 'Picnic', [{ text: 'Bring bread and plums.' }], 'What should I bring to a picnic?');
  await waitForRunState(laptop.tab, picnic, ['idle'], 20_000);
  const trip = await conversation(laptop.tab, 'Trip', [{ text: 'First:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] }], 'Plan a trip for me.');
  await waitForRunState(laptop.tab, trip, ['awaiting_input'], 20_000);
  const files = [
    { name: 'photo.png', type: 'image/png', blob: new Blob([imageBytes()], { type: 'image/png' }) },
    { name: 'notes.md', type: 'text/markdown', blob: new Blob(['The zeppelin leaves from hangar nine at dawn.'], { type: 'text/markdown' }) },
  ];
  const filed = await conversation(laptop.tab, 'Files', [{ text: 'Files: {{attachments}}' }], 'What is in these?', files);
  await waitForRunState(laptop.tab, filed, ['idle'], 20_000);
  const notes = await conversation(phone.tab, 'Phone notes', [{ text: 'Noted.' }], 'Remember the milk.');
  await waitForRunState(phone.tab, notes, ['idle'], 20_000);

  // Everything on the server and back on both devices, each engine caught up with its mirror.
  await laptop.engine.flush();
  await phone.engine.flush();
  const caughtUp = async (side: typeof laptop) => (await side.local.info()).update_seq === (await localValuesOf(side.local)).since;
  const ids = async (database: RawDatabase) => (await database.allDocs()).rows.map((row) => row.id).sort().join();
  await expect.poll(async () => (await ids(remote())) === (await ids(laptop.local)) && (await ids(remote())) === (await ids(phone.local)), WAIT).toBe(true);
  await expect.poll(async () => (await caughtUp(laptop)) && (await caughtUp(phone)), WAIT).toBe(true);
  expect((await laptop.tab.host.store.getConversation(notes))?.title).toBe('Phone notes');
  laptop.mirror.stopReplication();
  phone.mirror.stopReplication();

  const fixture = {
    _about: 'Written by tests/unit/segments-fixture-writer.ts run against d65dc13 (the build before segments: one sealed document per message, format 1). See tests/fixtures/sync/README.md.',
    commit: 'd65dc13',
    passphrase: PASSPHRASE,
    keyDocument: made.document,
    conversations: { picnic, trip, filed, notes },
    server: await documentsOf(remote()),
    laptop: { device: LAPTOP, records: await recordsOf(laptop.databaseName), mirror: { documents: await documentsOf(laptop.local), local: await localValuesOf(laptop.local), sinceIsLast: await caughtUp(laptop) } },
    phone: { device: PHONE },
  };
  writeFileSync(OUT, `${JSON.stringify(fixture, null, 1)}\n`);
});

import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { asDatabase, PouchDB, type RawDatabase } from './node-pouch';
import { answerCommand, memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { couchForMirrors } from './couch-for-mirrors';
import type { Conversation, Message, Profile } from '../../src/schema/records';
import type { SyncPayload } from '../../src/schema/sync/sync';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { MIRROR_DATABASE_OPTIONS, mirrorOver, type PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { openKeyDocument, type KeyDocument, type SyncKeys } from '../../src/worker/sync/documents/sync-crypto';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import { openParleyDatabase } from '../../src/worker/store/database';

// docs/architecture.md, "Sync": the build before segments wrote one sealed document per message (format 1). This build
// reads them beside segments, and its first start over such a mirror writes what the device runs as segments, then
// deletes that mirror's message documents of those conversations (another runner's stay). The data is what that build
// (d65dc13) wrote itself: tests/fixtures/sync/mirror-v1.json (README.md there says how it was made).

interface StoredDocument extends EncryptedDocument {
  _revisions?: { start: number; ids: string[] };
}
interface Fixture {
  passphrase: string;
  keyDocument: KeyDocument;
  conversations: { picnic: string; trip: string; filed: string; notes: string };
  server: StoredDocument[];
  laptop: {
    device: { id: string; name: string };
    records: { version: number; conversations: Conversation[]; messages: Message[]; profiles: Profile[]; settings: Array<[string, unknown]>; attachments: Array<{ id: string; conversationId: string; messageId: string; type: string; base64: string }> };
    mirror: { documents: StoredDocument[]; local: Record<string, unknown>; sinceIsLast: boolean };
  };
  phone: { device: { id: string; name: string } };
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/sync/mirror-v1.json', import.meta.url), 'utf8')) as Fixture;
const { picnic, trip, filed, notes } = fixture.conversations;
const LAPTOP = fixture.laptop.device;
const TABLET = { id: 'device-tablet', name: 'Tablet' };
const WAIT = { timeout: 60_000, interval: 100 };


const fixtureMessages = (conversationId: string) => fixture.laptop.records.messages.filter((message) => message.conversationId === conversationId).sort((a, b) => a.seq - b.seq);
const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/** The laptop's IndexedDB as the build before left it: made at its version, its records put back with raw writes. */
async function oldRecords(): Promise<string> {
  const name = uniqueDatabaseName();
  const { version, conversations, messages, profiles, settings, attachments } = fixture.laptop.records;
  const database = await openParleyDatabase(name, version);
  const transaction = database.transaction(['conversations', 'messages', 'profiles', 'settings', 'attachments'], 'readwrite');
  await Promise.all([
    ...conversations.map((record) => transaction.objectStore('conversations').put(record)),
    ...messages.map((record) => transaction.objectStore('messages').put(record)),
    ...profiles.map((record) => transaction.objectStore('profiles').put(record)),
    ...settings.map(([key, value]) => transaction.objectStore('settings').put(value, key)),
    ...attachments.map(({ type, base64, ...owner }) => transaction.objectStore('attachments').put({ ...owner, blob: new Blob([bytesOf(base64)], { type }) })),
  ]);
  await transaction.done;
  database.close();
  return name;
}

/** Documents with their histories, as a database held them, written back as they were (`new_edits: false`). */
async function restore(database: RawDatabase, documents: StoredDocument[]): Promise<void> {
  const results = await database.bulkDocs(documents, { new_edits: false });
  expect(results.filter((result) => result.error)).toEqual([]);
}

describe('the build before segments, from the data it wrote (sync, pouchdb-server)', { timeout: 180_000 }, () => {
  const server = couchForMirrors();
  let keys: SyncKeys;

  const remoteOf = (url: string) => new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
  /** A server holding what the build before left there. */
  async function oldServer(): Promise<string> {
    const url = await server.couch.createDatabase();
    await restore(remoteOf(url), fixture.server);
    keys ??= (await openKeyDocument(fixture.keyDocument, fixture.passphrase))!;
    expect(keys).toBeDefined();
    return url;
  }
  function mirrorOf(local: RawDatabase, url: string): PouchMirror {
    const mirror = mirrorOver(asDatabase(local), asDatabase(remoteOf(url)), { countAfterMs: 0 });
    server.mirrors.push(mirror);
    mirror.replicate(() => undefined);
    return mirror;
  }
  const newLocal = () => new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', ...MIRROR_DATABASE_OPTIONS });

  /** The laptop's mirror as the build before left it, documents and local values; `since` where its engine had got to. */
  async function oldMirror(): Promise<RawDatabase> {
    const local = newLocal();
    await restore(local, fixture.laptop.mirror.documents);
    const { sinceIsLast, local: values } = fixture.laptop.mirror;
    // Sequence numbers are the old database's own: the writer checked its engine had read up to the last one.
    expect(sinceIsLast).toBe(true);
    const since = (await local.info()).update_seq;
    for (const [key, value] of Object.entries({ ...values, since })) await local.put({ _id: `_local/${key}`, value });
    return local;
  }

  /** A device that turns sync on over `url` for the first time. */
  async function newDevice(url: string) {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const engine = await tab.host.sync.attach(mirrorOf(newLocal(), url), keys, TABLET);
    return { tab, engine };
  }

  /** What a database holds, opened as only the devices can (the key document and a file's chunks are not payloads). */
  async function payloadsIn(database: RawDatabase): Promise<SyncPayload[]> {
    const opened = new SealedDocuments(undefined as never, keys);
    const rows = (await database.allDocs({ include_docs: true })).rows;
    const found: SyncPayload[] = [];
    for (const { doc } of rows) if (doc && (doc.e === 1 || doc.e === 3)) found.push((await opened.read(doc))!);
    expect(found.every(Boolean)).toBe(true);
    return found;
  }
  const messagesIn = (payloads: SyncPayload[]) => payloads.flatMap((payload) => (payload.kind === 'message' ? [payload.message] : []));
  const segmentsIn = (payloads: SyncPayload[]) => payloads.flatMap((payload) => (payload.kind === 'segment' ? [payload] : []));

  /** Everything the laptop held on the build before, on `tab`: conversations, messages, files, the pending question. */
  async function expectEverything(tab: TestTab): Promise<void> {
    const titles = async () => (await tab.host.store.listConversations()).map((conversation) => conversation.title).sort();
    await expect.poll(titles, WAIT).toEqual(['Files', 'Phone notes', 'Picnic', 'Trip']);
    for (const conversationId of [picnic, trip, filed, notes]) {
      await expect.poll(async () => (await tab.host.store.allMessages(conversationId)).length, WAIT).toBe(fixtureMessages(conversationId).length);
      expect(await tab.host.store.allMessages(conversationId)).toEqual(fixtureMessages(conversationId));
    }
    expect((await tab.host.store.getConversation(trip))?.runState).toBe('awaiting_input');
    expect((await tab.send({ type: 'requests.listPending' })).map((pending) => pending.conversationId)).toEqual([trip]);
    for (const file of fixture.laptop.records.attachments) {
      // A new device puts a file together from its chunks as they arrive ("not here yet" until then).
      await expect.poll(async () => (await tab.send({ type: 'attachment.read', attachmentId: file.id }).catch(() => undefined)) !== undefined, WAIT).toBe(true);
      const { blob } = await tab.send({ type: 'attachment.read', attachmentId: file.id });
      expect(Buffer.from(await blob.arrayBuffer()).equals(Buffer.from(bytesOf(file.base64)))).toBe(true);
    }
  }

  it('a new device downloads everything from the server the build before wrote, and knows who runs what', async () => {
    const url = await oldServer();
    const { tab, engine } = await newDevice(url);
    await expectEverything(tab);
    expect(tab.host.sync.runnerElsewhere(picnic)).toEqual(LAPTOP);
    expect(tab.host.sync.runnerElsewhere(notes)).toEqual(fixture.phone.device);
    expect(engine.refused()).toBeUndefined();
  });

  it('the laptop starts this build over its old mirror: its conversations go into segments, its message documents go, nothing is lost', async () => {
    const url = await oldServer();
    const remote = remoteOf(url);
    const local = await oldMirror();
    const chunksBefore = (await remote.allDocs()).rows.filter((row) => fixture.server.some((document) => document._id === row.id && document.e === 2));
    const laptop = await openTab({ databaseName: await oldRecords(), locks: memoryLocks() });
    const engine = await laptop.host.sync.attach(mirrorOf(local, url), keys, LAPTOP);

    // The server ends with the laptop's three conversations in segments, holding every message as the laptop has it...
    const laptopMessages = [picnic, trip, filed].flatMap(fixtureMessages);
    await expect.poll(async () => segmentsIn(await payloadsIn(remote)).flatMap((segment) => segment.messages).length, WAIT).toBe(laptopMessages.length);
    const segments = segmentsIn(await payloadsIn(remote));
    expect(segments.map((segment) => [segment.conversationId, segment.index, segment.writer]).sort()).toEqual([picnic, trip, filed].map((id) => [id, 0, LAPTOP.id]).sort());
    expect(segments.flatMap((segment) => segment.messages).sort((a, b) => a.id.localeCompare(b.id))).toEqual([...laptopMessages].sort((a, b) => a.id.localeCompare(b.id)));
    // ...and its message documents deleted there and in the mirror; the phone's (it runs that one) are its own to delete.
    await expect.poll(async () => messagesIn(await payloadsIn(remote)).map((message) => message.conversationId), WAIT).toEqual(fixtureMessages(notes).map(() => notes));
    expect(messagesIn(await payloadsIn(local))).toEqual(messagesIn(await payloadsIn(remote)));
    await expect.poll(async () => ((await local.get('_local/state')) as { value: { segmented?: boolean } }).value.segmented, WAIT).toBe(true);
    // The files' chunks are the ones the build before wrote, not written again.
    expect((await remote.allDocs({ keys: chunksBefore.map((row) => row.id) })).rows.map((row) => row.value)).toEqual(chunksBefore.map((row) => row.value));
    await expectEverything(laptop);
    expect(engine.refused()).toBeUndefined();

    // A device that joins after the migration finds everything, and the question answered on the laptop reaches it.
    const tablet = await newDevice(url);
    await expectEverything(tablet.tab);
    expect(tablet.engine.refused()).toBeUndefined();
    await laptop.send({ type: 'settings.update', script: script([{ text: 'The beach it is.' }]) });
    const [pending] = await laptop.send({ type: 'requests.listPending' });
    await laptop.send(answerCommand({ conversationId: trip, messageId: pending!.messageId, toolCallId: pending!.request.requestId }, [{ selected: ['Beach'] }]));
    await waitForRunState(laptop, trip, ['idle'], 20_000);
    const answered = await laptop.host.store.allMessages(trip);
    await expect.poll(async () => isDeepStrictEqual(await tablet.tab.host.store.allMessages(trip), answered), WAIT).toBe(true);
  });
});

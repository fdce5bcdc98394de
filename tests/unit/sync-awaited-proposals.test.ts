import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { answerCommand, memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { LAPTOP, PHONE, testKeys } from './sync-simulation';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import { couchForMirrors } from './couch-for-mirrors';

// docs/architecture.md, "Sync": while a conversation the laptop runs waits on a question, the phone's answer is applied
// as soon as the server has it, read from the server's change itself: the laptop's replication, which would first ask
// which revisions its mirror lacks and then fetch them in a second request, is not waited for. Real hosts, and the
// app's mirrors (mirrorOver over PouchDB's in-memory adapter) replicating live with pouchdb-server.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const WAIT = { timeout: 30_000, interval: 50 };
const ASK = { text: 'Before I plan:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], custom: false }] } }] };
const ECHO = { text: 'Got: {{lastToolResult}}' };

describe('an answer for a conversation that waits on it (sync, pouchdb-server)', { timeout: 90_000 }, () => {
  const server = couchForMirrors();

  /** A device's mirror of `url`, and a switch that holds back every document its replication fetches from the server. */
  function mirrorOf(url: string) {
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
    let hold = false;
    const held: Array<() => void> = [];
    // The replication fetches what its mirror lacks with `bulkGet`, or (pouchdb-replication 7, as in node) first
    // revisions with `allDocs` by keys.
    for (const name of ['bulkGet', 'allDocs'] as const) {
      const fetch = (remote as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!.bind(remote);
      Object.assign(remote, {
        [name]: async (...args: unknown[]) => {
          if (hold) await new Promise<void>((resolve) => held.push(resolve));
          return fetch(...args);
        },
      });
    }
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    mirror.replicate(() => undefined);
    server.mirrors.push(mirror);
    const release = () => {
      hold = false;
      for (const resume of held.splice(0)) resume();
    };
    return { mirror, holdFetches: () => (hold = true), release };
  }

  it('is applied from the server’s change while the laptop’s replication fetches nothing, and its outcome reaches the phone', async () => {
    const url = await server.couch.createDatabase();
    const keys = await testKeys();
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const laptopMirror = mirrorOf(url);
    const phoneMirror = mirrorOf(url);
    await laptop.host.sync.attach(laptopMirror.mirror, keys, LAPTOP);
    await phone.host.sync.attach(phoneMirror.mirror, keys, PHONE);
    await laptop.send({ type: 'settings.update', script: script([ASK, ECHO]) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'message.send', conversationId, text: 'Plan a trip' });
    await waitForRunState(laptop, conversationId, ['awaiting_input']);
    await expect.poll(async () => (await phone.send({ type: 'requests.listPending' })).length, WAIT).toBe(1);
    const [pending] = await phone.send({ type: 'requests.listPending' });

    try {
      laptopMirror.holdFetches();
      const result = await phone.send(answerCommand({ conversationId, messageId: pending!.messageId, toolCallId: pending!.request.requestId }, [{ selected: ['City'] }]));
      expect(result.proposedTo).toEqual(LAPTOP);
      await waitForRunState(laptop, conversationId, ['idle'], 30_000);
      const last = (await laptop.host.store.listMessages(conversationId)).at(-1);
      expect(last?.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('')).toContain('"Where to?"="City"');

      // The outcome is written over the revision the server gave the proposal: one history, which the phone receives.
      const proposalOnServer = async () => {
        const documents = (await server.couch.allDocuments(url)) as unknown as Array<EncryptedDocument & { _conflicts?: string[] }>;
        const opened = await Promise.all(documents.map(async (document) => ({ document, payload: await new SealedDocuments(phoneMirror.mirror, keys).read(document) })));
        return opened.find(({ payload }) => payload?.kind === 'proposal');
      };
      await expect.poll(async () => (await proposalOnServer())?.payload, WAIT).toMatchObject({ proposal: { outcome: { status: 'applied', by: LAPTOP } } });
      const proposal = await proposalOnServer();
      expect(proposal?.document._rev?.startsWith('2-')).toBe(true);
      expect(proposal?.document._conflicts).toBeUndefined();
      await expect.poll(async () => (await phoneMirror.mirror.get(proposal!.document._id))?._rev, WAIT).toBe(proposal?.document._rev);
      await expect.poll(async () => (await phone.send({ type: 'requests.listPending' })).length, WAIT).toBe(0);
    } finally {
      laptopMirror.release();
    }
  });
});

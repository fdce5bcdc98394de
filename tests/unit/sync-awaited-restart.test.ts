import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { answerCommand, memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { LAPTOP, PHONE, testKeys } from './sync-simulation';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { PROPOSAL_MARK } from '../../src/worker/sync/sync-measures';
import { couchForMirrors } from './couch-for-mirrors';

// docs/architecture.md, "Sync": the runner applies an answer heard from the server beside the mirror's write of it. A
// tab closed between the two loses nothing and applies it once: the mirror's copy, which the replication brings after
// the restart, meets the nonce already claimed and is not taken for an old revision written back (the warning Settings
// shows). Real hosts, and the app's mirrors replicating live with pouchdb-server.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const WAIT = { timeout: 30_000, interval: 50 };
const ASK = { text: 'Before I plan:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], custom: false }] } }] };
const ECHO = { text: 'Got: {{lastToolResult}}' };

describe('an answer applied, then the runner’s tab closed before its mirror held it (sync, pouchdb-server)', { timeout: 90_000 }, () => {
  const server = couchForMirrors();
  const remoteOf = (url: string) => new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });

  it('is applied once, and its copy from the mirror after the restart is neither applied again nor counted as replayed', async () => {
    const url = await server.couch.createDatabase();
    const keys = await testKeys();
    const laptopDatabase = uniqueDatabaseName();
    const laptop = await openTab({ databaseName: laptopDatabase, locks: memoryLocks() });
    const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    // The laptop's mirror, whose writes of revisions from elsewhere (the server's) can be held: the tab closes first.
    const laptopLocal = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });
    const bulkDocs = laptopLocal.bulkDocs.bind(laptopLocal);
    let hold = false;
    // Its own adopt passes `new_edits: false` as an option, the replication inside its request.
    const fromElsewhere = (request: unknown, options?: { new_edits: false }) => options?.new_edits === false || (request as { new_edits?: boolean }).new_edits === false;
    Object.assign(laptopLocal, { bulkDocs: (request: EncryptedDocument[], options?: { new_edits: false }) => (hold && fromElsewhere(request, options) ? new Promise(() => undefined) : bulkDocs(request, options)) });
    const laptopMirror = mirrorOver(laptopLocal, remoteOf(url), { countAfterMs: 0 });
    const phoneMirror = mirrorOver(new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory' }), remoteOf(url), { countAfterMs: 0 });
    for (const mirror of [laptopMirror, phoneMirror]) mirror.replicate(() => undefined);
    server.mirrors.push(phoneMirror);
    await laptop.host.sync.attach(laptopMirror, keys, LAPTOP);
    await phone.host.sync.attach(phoneMirror, keys, PHONE);
    await laptop.send({ type: 'settings.update', script: script([ASK, ECHO]) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'message.send', conversationId, text: 'Plan a trip' });
    await waitForRunState(laptop, conversationId, ['awaiting_input']);
    await expect.poll(async () => (await phone.send({ type: 'requests.listPending' })).length, WAIT).toBe(1);
    const [pending] = await phone.send({ type: 'requests.listPending' });

    hold = true;
    await phone.send(answerCommand({ conversationId, messageId: pending!.messageId, toolCallId: pending!.request.requestId }, [{ selected: ['City'] }]));
    await waitForRunState(laptop, conversationId, ['idle'], 30_000);
    const replies = async (tab: typeof laptop) => (await tab.host.store.listMessages(conversationId)).filter((message) => message.blocks.some((block) => block.type === 'text' && block.text.includes('"Where to?"="City"')));
    expect(await replies(laptop)).toHaveLength(1);

    // The tab closes: its mirror never held the proposal, and no outcome was written for it.
    await laptop.host.sync.detach();
    laptopMirror.stopReplication();
    laptop.close();
    hold = false;
    const reopened = await openTab({ databaseName: laptopDatabase, locks: memoryLocks() });
    await reopened.host.runs.recoverAll();
    const mirror = mirrorOver(laptopLocal, remoteOf(url), { countAfterMs: 0 });
    mirror.replicate(() => undefined);
    server.mirrors.push(mirror);
    performance.clearMarks(PROPOSAL_MARK);
    const engine = await reopened.host.sync.attach(mirror, keys, LAPTOP);

    const proposalHeld = async () => {
      const documents = await server.couch.allDocuments(url);
      const held = await Promise.all(documents.map(async (document) => (await mirror.get(String(document._id)))?._rev === document._rev));
      return held.every(Boolean) && documents.length > 0;
    };
    await expect.poll(proposalHeld, WAIT).toBe(true);
    // The receiver took the proposal from the mirror (and applied what it would).
    const steps = () => performance.getEntriesByName(PROPOSAL_MARK).map((entry) => (entry as PerformanceMark).detail.step);
    await expect.poll(steps, WAIT).toContain('applying');
    await reopened.host.sync.detach();
    expect(engine.refused()).toBeUndefined();
    expect(engine.refusedProposals).toBe(0);
    expect(await replies(reopened)).toHaveLength(1);
    expect((await reopened.host.store.getConversation(conversationId))?.runState).toBe('idle');
  });
});

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { LAPTOP, PHONE, testKeys } from './sync-simulation';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { sendWarmer, WARM_MS } from '../../src/worker/sync/mirror/warm-send';
import { couchForMirrors } from './couch-for-mirrors';

// docs/architecture.md, "Sync": a device that shows a request another device's run waits on readies the send of its
// answer (an empty `_bulk_docs` with the send's URL and headers), so a browser does not hold the answer's send back for a
// CORS preflight round trip. Real hosts, and the app's mirrors replicating live with pouchdb-server.

const require = createRequire(import.meta.url);
type NodePouch = (new (name: string, options: Record<string, unknown>) => Database<EncryptedDocument>) & { plugin(plugin: unknown): NodePouch };
const PouchDB = require('pouchdb-core') as NodePouch;
PouchDB.plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

const WAIT = { timeout: 30_000, interval: 50 };
const ASK = { text: 'Before I plan:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], custom: false }] } }] };

describe('the send of an answer, readied (sync, pouchdb-server)', { timeout: 90_000 }, () => {
  const server = couchForMirrors();

  /** A device's mirror of `url`, and the requests its own code sent through the server database's `fetch`. */
  function mirrorOf(url: string) {
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true });
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
    const fetched: Array<{ path: string; method?: string; body?: unknown; status?: number }> = [];
    const fetch = remote.fetch.bind(remote);
    Object.assign(remote, {
      fetch: async (path: string, options: RequestInit & { headers: Headers }) => {
        const response = await fetch(path, options);
        fetched.push({ path, method: options.method, body: options.body, status: response.status });
        return response;
      },
    });
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    mirror.replicate(() => undefined);
    server.mirrors.push(mirror);
    return { mirror, fetched };
  }

  it('is readied on the phone once the laptop’s question reaches it (an empty write), and not on the laptop', async () => {
    const url = await server.couch.createDatabase();
    const keys = await testKeys();
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const laptopMirror = mirrorOf(url);
    const phoneMirror = mirrorOf(url);
    await laptop.host.sync.attach(laptopMirror.mirror, keys, LAPTOP);
    await phone.host.sync.attach(phoneMirror.mirror, keys, PHONE);
    await laptop.send({ type: 'settings.update', script: script([ASK]) });
    const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
    await laptop.send({ type: 'message.send', conversationId, text: 'Plan a trip' });
    await waitForRunState(laptop, conversationId, ['awaiting_input']);

    await expect.poll(async () => (await phone.send({ type: 'requests.listPending' })).length, WAIT).toBe(1);
    await expect.poll(() => phoneMirror.fetched.filter((entry) => entry.path === '_bulk_docs'), WAIT).toEqual([{ path: '_bulk_docs', method: 'POST', body: '{"docs":[]}', status: 201 }]);
    // The laptop runs the conversation: no answer of its own travels, so it readies nothing.
    expect(laptopMirror.fetched).toEqual([]);
  });
});

describe('sendWarmer', () => {
  it('sends at most one warm-up within WARM_MS, and another after it', () => {
    let now = 0;
    const paths: string[] = [];
    const remote = { fetch: (path: string) => (paths.push(path), Promise.resolve(new Response('[]'))) } as unknown as Database<EncryptedDocument>;
    const warm = sendWarmer(remote, () => now);
    warm();
    now = WARM_MS - 1;
    warm();
    expect(paths).toEqual(['_bulk_docs']);
    now = WARM_MS;
    warm();
    expect(paths).toEqual(['_bulk_docs', '_bulk_docs']);
  });
});

import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { mirrorOver } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { PouchDB } from './node-pouch';
import { couchForMirrors } from './couch-for-mirrors';

// docs/architecture.md, "Sync": "Synced" is said as soon as the server's own answers show that it holds every document
// of the mirror and lists nothing the mirror lacks, not after the replication has written the checkpoints of the batches
// that moved them (at the end of an initial upload, those round trips were what the status waited for). The mirror is
// the app's (mirrorOver) over PouchDB's in-memory adapter, replicating live with pouchdb-server.

const WAIT = { timeout: 30_000, interval: 20 };

/** A gate: `wait()` resolves once `open()` is called. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open: () => open() };
}

/** Runs `after` once each call of `method` on `database` has answered, with its first argument and its result. */
function afterEach<Result>(database: object, method: 'bulkDocs', after: (argument: unknown, result: Result) => void): void {
  const original = (database as Record<string, (...args: unknown[]) => Promise<Result>>)[method]!.bind(database);
  Object.assign(database, {
    [method]: async (argument: unknown, ...rest: unknown[]) => {
      const result = await original(argument, ...rest);
      after(argument, result);
      return result;
    },
  });
}

/** Holds back each call of `method` on `database` whose first argument `matches`, until `held` resolves. */
function holdBack(database: object, method: 'put' | 'bulkGet', matches: (argument: unknown) => boolean, held: () => Promise<void>, noted: () => void = () => undefined): void {
  const original = (database as Record<string, (...args: unknown[]) => Promise<unknown>>)[method]!.bind(database);
  Object.assign(database, {
    [method]: async (argument: unknown, ...rest: unknown[]) => {
      if (matches(argument)) {
        noted();
        await held();
      }
      return original(argument, ...rest);
    },
  });
}

const ids = (argument: unknown): string[] => ((Array.isArray(argument) ? argument : (argument as { docs: Array<{ _id?: string; id?: string }> }).docs) as Array<{ _id?: string; id?: string }>).map((document) => document._id ?? document.id ?? '');
const sealedDocument = (id: string, characters = 100): EncryptedDocument => ({ _id: id, e: 3, m: { iv: `iv-${id}`, ct: 'c'.repeat(characters) } });

describe('"Synced" from the server\'s own answers (sync, pouchdb-server)', { timeout: 60_000 }, () => {
  const server = couchForMirrors();

  async function replicatingMirror(url: string) {
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory', auto_compaction: true }) as unknown as Database<EncryptedDocument>;
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } }) as unknown as Database<EncryptedDocument>;
    const checkpoints = gate();
    let holding = false;
    let heldCheckpoints = 0;
    // The replication's checkpoints are kept on the server (`_local/…`): held back once `holdCheckpoints` is called.
    holdBack(remote, 'put', (document) => holding && String((document as { _id?: string })._id).startsWith('_local/'), () => checkpoints.wait(), () => (heldCheckpoints += 1));
    const mirror = mirrorOver(local, remote, { countAfterMs: 0 });
    server.mirrors.push(mirror);
    const states: string[] = [];
    const listeners: Array<(state: string) => void> = [];
    mirror.replicate((state) => {
      states.push(state.state);
      for (const listener of listeners) listener(state.state);
    });
    await expect.poll(() => states.includes('synced'), WAIT).toBe(true);
    return {
      mirror, local, remote, states,
      onState: (listener: (state: string) => void) => listeners.push(listener),
      holdCheckpoints: () => (holding = true),
      get heldCheckpoints() {
        return heldCheckpoints;
      },
      releaseCheckpoints: () => checkpoints.open(),
    };
  }

  it('says Synced once the server answered that it holds every document of an upload, without waiting for the replication\'s checkpoints', async () => {
    const url = await server.couch.createDatabase();
    const device = await replicatingMirror(url);
    const documents = Array.from({ length: 450 }, (_, index) => sealedDocument(`segment-${String(index).padStart(3, '0')}`, 1000));
    // What the server has answered it holds, as each send's answer arrives.
    const onServer = new Set<string>();
    afterEach<Array<{ error?: unknown; id?: string }>>(device.remote, 'bulkDocs', (argument, results) => {
      const refused = new Set(results.flatMap((result) => (result.error && result.id ? [result.id] : [])));
      for (const id of ids(argument)) if (!refused.has(id)) onServer.add(id);
    });
    // From the moment the first of them is in the mirror, each "Synced" and how many of them the server held then.
    let inMirror = false;
    afterEach<unknown>(device.local, 'bulkDocs', (argument) => (inMirror ||= ids(argument).some((id) => id.startsWith('segment-'))));
    const saidWith: number[] = [];
    device.onState((state) => inMirror && state === 'synced' && saidWith.push(documents.filter((document) => onServer.has(document._id)).length));
    device.holdCheckpoints();
    try {
      expect(await device.mirror.putMany(documents)).toEqual(documents.map(() => undefined));
      await expect.poll(() => saidWith.length, WAIT).toBeGreaterThan(0);
      // Said while the replication's checkpoints for these batches are held back, and only with every document on the server.
      await expect.poll(() => device.heldCheckpoints, WAIT).toBeGreaterThan(0);
      expect(saidWith).toEqual(saidWith.map(() => documents.length));
      expect((await server.couch.allDocuments(url)).filter((document) => String(document._id).startsWith('segment-'))).toHaveLength(documents.length);
    } finally {
      device.releaseCheckpoints();
    }
  });

  it('does not say Synced while a document the server listed is still on its way into the mirror', async () => {
    const url = await server.couch.createDatabase();
    const device = await replicatingMirror(url);
    // Another device's document (a second revision: fetched with `_bulk_get`): the pull hears of it and fetches it (held
    // back here) before writing it to the mirror.
    const fetching = gate();
    let fetched = false;
    holdBack(device.remote, 'bulkGet', (request) => JSON.stringify(request).includes('from-elsewhere'), () => fetching.wait(), () => (fetched = true));
    let inMirror = false;
    afterEach<unknown>(device.local, 'bulkDocs', (argument) => {
      if (ids(argument).includes('from-elsewhere')) inMirror = true;
    });
    const elsewhere = new PouchDB(url, { adapter: 'http', skip_setup: true, auth: { username: server.couch.username, password: server.couch.password } });
    await elsewhere.bulkDocs([{ ...sealedDocument('from-elsewhere'), _rev: '2-b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0', _revisions: { start: 2, ids: ['b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0', 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0'] } }], { new_edits: false });
    await expect.poll(() => fetched, WAIT).toBe(true);
    // From the moment the pull fetches it, every "Synced" said before it is in the mirror.
    const saidBeforeItLanded: string[] = [];
    device.onState((state) => state === 'synced' && !inMirror && saidBeforeItLanded.push(state));
    // This device's own write reaches the server meanwhile: it alone would be "every document of the mirror on the server".
    const before = device.states.length;
    expect(await device.mirror.putMany([sealedDocument('mine')])).toEqual([undefined]);
    await expect.poll(async () => (await server.couch.allDocuments(url)).some((document) => document._id === 'mine'), WAIT).toBe(true);
    fetching.open();
    await expect.poll(() => inMirror, WAIT).toBe(true);
    await expect.poll(() => device.states.slice(before).includes('synced'), WAIT).toBe(true);
    expect(saidBeforeItLanded).toEqual([]);
  });
});

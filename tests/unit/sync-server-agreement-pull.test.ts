import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';
import { ServerAgreement } from '../../src/worker/sync/mirror/server-agreement';
import { PouchDB } from './node-pouch';
import { couchForMirrors } from './couch-for-mirrors';

// docs/architecture.md, "Sync": the pull counts as at the server's end as of its last `_changes` answer, as the
// replication's own pause means it: a short page, or the pull's pause. The rule (server-agreement.ts) is driven here by
// PouchDB's own live pull from pouchdb-server into an in-memory mirror; "the mirror holds" is the documents put in it.

const WAIT = { timeout: 30_000, interval: 20 };
const BATCH = 5;
const require = createRequire(import.meta.url);
const pouchFetch = (require('pouchdb-fetch') as { fetch: (url: string, options: object) => Promise<unknown> }).fetch;

/** A gate: `wait()` resolves once `open()` is called. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open: () => open() };
}

/** `count` documents as this device wrote them (explicit revisions, so the server can hold the very same ones). */
const documents = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({ _id: `${prefix}-${index}`, _rev: `1-${'a'.repeat(31)}${index % 10}`, e: 3, m: { iv: 'iv', ct: 'c' } }));

interface Raw {
  bulkDocs(documents: object[], options: { new_edits: false }): Promise<unknown>;
  changes(options: Record<string, unknown>): unknown;
  replicate: { from(source: unknown, options: Record<string, unknown>): { on(event: string, listener: (error?: unknown) => void): unknown; cancel(): void } };
}

describe('the pull at the server\'s end, for "Synced" (ServerAgreement, pouchdb-server)', { timeout: 60_000 }, () => {
  const server = couchForMirrors();

  /**
   * A live pull (batches of BATCH) into a mirror that holds `held`, the server holding them too, and the states the rule
   * says; `holdRequest` holds back the server's answer to those `_changes` requests it matches (by URL).
   */
  async function pulling(held: ReturnType<typeof documents>, holdRequest: (url: string) => boolean = () => false) {
    const url = await server.couch.createDatabase();
    const auth = { username: server.couch.username, password: server.couch.password };
    const answers = gate();
    let heldRequests = 0;
    const fetch = async (address: string, options: object) => {
      if (address.includes('/_changes') && holdRequest(address)) {
        heldRequests += 1;
        await answers.wait();
      }
      return pouchFetch(address, options);
    };
    const remote = new PouchDB(url, { adapter: 'http', skip_setup: true, auth, fetch }) as unknown as Raw;
    const local = new PouchDB(`mirror-${Math.random().toString(36).slice(2)}`, { adapter: 'memory' }) as unknown as Raw;
    const holds = new Set<string>();
    const hold = async (written: ReturnType<typeof documents>) => {
      await local.bulkDocs(written, { new_edits: false });
      for (const document of written) holds.add(`${document._id}@${document._rev}`);
      await remote.bulkDocs(written, { new_edits: false });
    };
    if (held.length > 0) await hold(held);

    const agreement = new ServerAgreement((id, rev) => holds.has(`${id}@${rev}`));
    const states: string[] = [];
    agreement.sayWhenAgreed({ applied: () => true, failing: () => false, onState: (state) => states.push(state.state) });
    // Nothing this device wrote is unsent (the push is not what these tests are about): the rule waits on the pull alone.
    agreement.opened(true);
    agreement.observePull(remote as unknown as Database<EncryptedDocument>);
    // The pull's live `_changes` requests, counted over the rule's own observation of them (so after it saw each answer).
    const observed = remote.changes.bind(remote);
    let liveFeeds = 0;
    Object.assign(remote, {
      changes: (options: Record<string, unknown>) => {
        if (options.live === true) liveFeeds += 1;
        return observed(options);
      },
    });
    agreement.replicationStarted();
    const replication = local.replicate.from(remote, { live: true, retry: true, batch_size: BATCH, checkpoint: 'source' });
    replication.on('paused', (error) => !error && agreement.paused('pull'));
    return {
      states, hold,
      get liveFeeds() {
        return liveFeeds;
      },
      get heldRequests() {
        return heldRequests;
      },
      stop: () => {
        answers.open();
        replication.cancel();
      },
    };
  }

  it('says Synced on the pull\'s short page, not only once its next request (which finds nothing more) is answered', async () => {
    // The first page (from the start) lists three documents the mirror holds: fewer than asked for, so the server's end.
    // The replication asks once more from the last of them; that answer is held back.
    const pull = await pulling(documents('held', 3), (address) => !/[?&]since=0(&|$)/.test(address));
    try {
      await expect.poll(() => pull.heldRequests, WAIT).toBeGreaterThan(0);
      // Said on the short page, and not unsaid when the next request went out.
      expect(pull.states).toEqual(['synced']);
    } finally {
      pull.stop();
    }
  });

  it('keeps Synced when the pull\'s live feed ends at its limit listing what the mirror holds (its limit counts over all its answers)', async () => {
    const pull = await pulling([]);
    try {
      await expect.poll(() => pull.liveFeeds, WAIT).toBe(1);
      expect(pull.states).toEqual(['synced']);
      // This device's documents reach the server (as its push does) and the live feed lists them back: more than its limit.
      await pull.hold(documents('mine', BATCH + 2));
      // The live feed ended at its limit, and the replication asked again: the rule saw that feed's end by then.
      await expect.poll(() => pull.liveFeeds, WAIT).toBe(2);
      expect(pull.states).toEqual(['synced']);
    } finally {
      pull.stop();
    }
  });

  it('counts the pull\'s own pause as having reached the server\'s end', () => {
    const agreement = new ServerAgreement(() => true);
    const states: string[] = [];
    agreement.sayWhenAgreed({ applied: () => true, failing: () => false, onState: (state) => states.push(state.state) });
    agreement.opened(true);
    agreement.replicationStarted();
    agreement.paused('push');
    expect(states).toEqual([]);
    agreement.paused('pull');
    expect(states).toEqual(['synced']);
  });
});

import { describe, expect, it } from 'vitest';
import { replicationProgress, type ReplicationState } from '../../src/worker/sync/mirror/replication-status';

// "Syncing 120 of 3,400": what the mirror reports from PouchDB's replication events. pouchdb-server (like
// CouchDB 1) does not say how many changes remain, so the mirror counts the documents each side holds; CouchDB 2+ says.
// (PouchDB's IndexedDB adapter does not run over fake-indexeddb, so the replicator's events are played here; the
// benchmark, bench/sync.mjs, records the statuses a real initial sync shows in the browser.)

/** Two sides whose document counts the test sets, as `info()` reports them. */
function sides(local: number, remote: number) {
  const counts = { local, remote };
  const side = (key: 'local' | 'remote') => ({ info: async () => ({ doc_count: counts[key] }) }) as never;
  return { counts, local: side('local'), remote: side('remote') };
}

const progressOf = (states: ReplicationState[]) => states.at(-1) as { state: string; done: number; total?: number };

describe('sync progress', () => {
  it('an initial download counts each batch once (docs_written is cumulative) against what the server holds', async () => {
    const { counts, local, remote } = sides(0, 3400);
    const states: ReplicationState[] = [];
    const progress = replicationProgress(local, remote, (state) => states.push(state), 0);
    progress.active();
    expect(progressOf(states)).toEqual({ state: 'syncing', done: 0 });
    // PouchDB's docs_written counts from the replication's start: 200, then 400, then 600.
    for (const written of [200, 400, 600]) {
      counts.local = written;
      progress.batch('pull', { docs_written: written });
      await expect.poll(() => progressOf(states)).toEqual({ state: 'syncing', done: written, total: 3400 });
    }
    // Every status said 3,400 in all, even those reported before the next count came back (never 3,600 in between).
    expect(new Set(states.flatMap((state) => (state.state === 'syncing' && state.total !== undefined ? [state.total] : [])))).toEqual(new Set([3400]));
  });

  it('an upload counts what this side holds that the server lacks; CouchDB 2+ says what remains itself', async () => {
    const { counts, local, remote } = sides(1200, 1);
    const states: ReplicationState[] = [];
    const progress = replicationProgress(local, remote, (state) => states.push(state), 0);
    progress.active();
    await expect.poll(() => progressOf(states)).toEqual({ state: 'syncing', done: 0, total: 1199 });
    counts.remote = 201;
    progress.batch('push', { docs_written: 200 });
    await expect.poll(() => progressOf(states)).toEqual({ state: 'syncing', done: 200, total: 1199 });
    // A server that says how many changes remain is believed for its direction.
    progress.batch('pull', { docs_written: 10, pending: 90 });
    expect(progressOf(states).total).toBeGreaterThanOrEqual(210 + 90);
  });

  it('a new round counts from zero, and a count still under way when sync goes idle or stops is never reported', async () => {
    const { counts, local, remote } = sides(0, 500);
    const states: ReplicationState[] = [];
    let release: (() => void) | undefined;
    const slow = { info: () => new Promise((resolve) => (release = () => resolve({ doc_count: counts.remote }))) } as never;
    const progress = replicationProgress(local, slow, (state) => states.push(state), 0);
    progress.active();
    // The count has begun (the server has not answered yet) when both directions go idle.
    await expect.poll(() => release).toBeTypeOf('function');
    progress.roundOver();
    states.push({ state: 'synced' });
    release!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(states.at(-1)).toEqual({ state: 'synced' });
    // The next round starts at zero documents moved.
    const again = replicationProgress(local, remote, (state) => states.push(state), 0);
    again.active();
    again.batch('pull', { docs_written: 100 });
    again.roundOver();
    again.active();
    expect(progressOf(states)).toEqual({ state: 'syncing', done: 0 });
    again.stop();
  });
});

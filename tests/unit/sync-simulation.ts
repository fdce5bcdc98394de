import type { EncryptedDocument, Mirror, MirrorChange } from '../../src/worker/sync/mirror/mirror';
import { memoryLocks, openTab, uniqueDatabaseName, type TabOptions, type TestTab } from './host-harness';
import { newKeyDocument, type SyncKeys } from '../../src/worker/sync/documents/sync-crypto';

/**
 * A CouchDB-like server and device mirrors in memory, joined by a replicator the test drives: it moves documents in
 * random order, duplicates some, holds some back, and goes "offline" on request. Revisions follow CouchDB's rules
 * closely enough for Parley: `n-hash`, a write must name the current revision (409 otherwise), and when two revisions
 * meet, the longer history wins, then the greater hash — the same winner on every side.
 */
type Stored = { document: EncryptedDocument; generation: number; hash: string };

let revisionCounter = 0;
function nextRevision(previous: Stored | undefined): { generation: number; hash: string } {
  revisionCounter += 1;
  return { generation: (previous?.generation ?? 0) + 1, hash: `${revisionCounter.toString(36).padStart(6, '0')}${Math.random().toString(36).slice(2, 8)}` };
}

function wins(candidate: Stored, current: Stored | undefined): boolean {
  if (!current) return true;
  if (candidate.generation !== current.generation) return candidate.generation > current.generation;
  return candidate.hash > current.hash;
}

/** One side of replication: the server, or a device's mirror. Holds winners only (conflicts resolve on arrival). */
class DocumentStore {
  readonly documents = new Map<string, Stored>();
  readonly log: Array<{ id: string; seq: number }> = [];
  private seq = 0;
  private readonly listeners = new Set<() => void>();

  put(document: EncryptedDocument): 'ok' | 'conflict' {
    const current = this.documents.get(document._id);
    const currentRev = current ? `${current.generation}-${current.hash}` : undefined;
    if ((document._rev ?? undefined) !== currentRev) return 'conflict';
    const revision = nextRevision(current);
    this.store({ document: { ...document, _rev: `${revision.generation}-${revision.hash}` }, ...revision });
    return 'ok';
  }

  /** A revision replicated from elsewhere: kept when it wins. */
  receive(stored: Stored): void {
    if (wins(stored, this.documents.get(stored.document._id))) this.store(stored);
  }

  private store(stored: Stored): void {
    this.documents.set(stored.document._id, stored);
    this.seq += 1;
    this.log.push({ id: stored.document._id, seq: this.seq });
    for (const listener of this.listeners) listener();
  }

  changesSince(since: number): MirrorChange[] {
    const latest = new Map<string, number>();
    for (const entry of this.log) if (entry.seq > since) latest.set(entry.id, entry.seq);
    return [...latest.entries()].sort((a, b) => a[1] - b[1]).map(([id, seq]) => ({ document: structuredClone(this.documents.get(id)!.document), seq }));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class SimulatedServer extends DocumentStore {
  /** When false, the devices cannot reach it (their direct reads and writes fail; the replicator moves nothing). */
  reachable = true;

  allPlaintext(): string {
    return JSON.stringify([...this.documents.values()].map((stored) => stored.document));
  }
}

export class SimulatedMirror implements Mirror {
  readonly local = new DocumentStore();
  private readonly locals = new Map<string, unknown>();
  /** The sequence of the last change `follow`'s callback has applied. */
  applied: number | undefined;

  constructor(readonly server: SimulatedServer) {}

  async get(id: string): Promise<EncryptedDocument | undefined> {
    const stored = this.local.documents.get(id);
    return stored && !stored.document._deleted ? structuredClone(stored.document) : undefined;
  }

  async put(document: EncryptedDocument): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (this.local.put(document) === 'ok') return;
      const current = this.local.documents.get(document._id);
      document = { ...document, ...(current ? { _rev: current.document._rev } : {}) };
      if (!current) delete document._rev;
    }
    throw new Error('conflict');
  }

  async getMany(ids: string[]): Promise<Array<EncryptedDocument | undefined>> {
    return Promise.all(ids.map((id) => this.get(id)));
  }

  /** Each through `put` (so a subclass that refuses some writes refuses them here too); one failing fails only itself. */
  async putMany(documents: EncryptedDocument[]): Promise<Array<Error | undefined>> {
    const errors: Array<Error | undefined> = [];
    for (const document of documents) errors.push(await this.put(document).then(() => undefined, (error: Error) => error));
    return errors;
  }

  /** Each through `put` as a document new to the mirror (the simulated replicator moves it later). */
  async putNew(documents: EncryptedDocument[]): Promise<Array<Error | undefined>> {
    return this.putMany(documents.map((document) => ({ ...document, ...(this.local.documents.has(document._id) ? { _rev: this.local.documents.get(document._id)!.document._rev } : { _rev: undefined }) })));
  }

  /** Whether `takeFromServer` takes anything: off, every document comes through the replicator (as a test orders it). */
  takes = false;

  /** What the server holds of `ids` now, then as it arrives; each also received into the mirror, as replicated. */
  takeFromServer(ids: string[], onDocuments: (documents: EncryptedDocument[]) => void): { cancel(): void } {
    if (!this.takes) return { cancel() {} };
    const wanted = new Set(ids);
    let unsubscribe = () => {};
    const take = () => {
      if (!this.server.reachable) return;
      const found = [...wanted].flatMap((id) => this.server.documents.get(id) ?? []).map((stored) => structuredClone(stored));
      if (found.length === 0) return;
      for (const stored of found) wanted.delete(stored.document._id);
      onDocuments(found.map((stored) => structuredClone(stored.document)));
      for (const stored of found) this.local.receive(stored);
      if (wanted.size === 0) unsubscribe();
    };
    unsubscribe = this.server.onChange(take);
    take();
    return { cancel: () => unsubscribe() };
  }

  follow(since: string | number | undefined, onChanges: (changes: MirrorChange[]) => Promise<void>): { cancel(): void } {
    let position = Number(since ?? 0);
    let cancelled = false;
    let running = Promise.resolve();
    const drain = () => {
      running = running.then(async () => {
        while (!cancelled) {
          const changes = this.local.changesSince(position);
          if (changes.length === 0) {
            if (position === Number(since ?? 0)) await onChanges([]); // caught up, with nothing to apply
            return;
          }
          position = Number(changes.at(-1)!.seq);
          await onChanges(changes);
          this.applied = position;
        }
      });
    };
    const unsubscribe = this.local.onChange(drain);
    drain();
    return {
      cancel: () => {
        cancelled = true;
        unsubscribe();
      },
    };
  }

  async remoteGet(id: string): Promise<EncryptedDocument | undefined> {
    if (!this.server.reachable) throw new Error('offline');
    const stored = this.server.documents.get(id);
    return stored ? structuredClone(stored.document) : undefined;
  }

  async remotePut(document: EncryptedDocument): Promise<'ok' | 'conflict'> {
    if (!this.server.reachable) throw new Error('offline');
    return this.server.put(document);
  }

  async getLocal(key: string): Promise<unknown> {
    return this.locals.get(key);
  }

  async setLocal(key: string, value: unknown): Promise<void> {
    this.locals.set(key, value);
  }
}

/** A seeded random generator (mulberry32), so a failing trial can be replayed. */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Moves documents between mirrors and the server, one random step at a time: a document pushed or pulled, in any order,
 * sometimes twice, sometimes held back for later. Nothing moves while the server is unreachable or a mirror is offline.
 */
export class SimulatedReplicator {
  private readonly offline = new Set<SimulatedMirror>();

  constructor(
    readonly server: SimulatedServer,
    readonly mirrors: SimulatedMirror[],
    private readonly random: () => number,
  ) {}

  setOffline(mirror: SimulatedMirror, offline: boolean): void {
    if (offline) this.offline.add(mirror);
    else this.offline.delete(mirror);
  }

  /** Held back from a mirror until `holdBack` is cleared: documents by id (an order of arrival a test needs). */
  holdBack: { mirror: SimulatedMirror; ids: ReadonlySet<string> } | undefined;

  /** Documents whose winner differs between a connected mirror and the server, both ways. */
  private pending(): Array<() => void> {
    const moves: Array<() => void> = [];
    if (!this.server.reachable) return moves;
    for (const mirror of this.mirrors) {
      if (this.offline.has(mirror)) continue;
      for (const [id, stored] of mirror.local.documents) {
        const there = this.server.documents.get(id);
        if (there?.document._rev !== stored.document._rev && wins(stored, there)) moves.push(() => this.server.receive(structuredClone(stored)));
      }
      for (const [id, stored] of this.server.documents) {
        if (this.holdBack?.mirror === mirror && this.holdBack.ids.has(id)) continue;
        const here = mirror.local.documents.get(id);
        if (here?.document._rev !== stored.document._rev && wins(stored, here)) moves.push(() => mirror.local.receive(structuredClone(stored)));
      }
    }
    return moves;
  }

  /** One random move (and sometimes the same move again: a duplicate delivery). False when nothing is left to move. */
  step(): boolean {
    const moves = this.pending();
    if (moves.length === 0) return false;
    const move = moves[Math.floor(this.random() * moves.length)]!;
    move();
    if (this.random() < 0.2) move();
    return true;
  }

  /**
   * Replicates until nothing is left to move and every device has applied what it received, checking `done` between
   * steps; yields to the engines between steps so their writes join in. Throws after `limit` rounds without `done`.
   * A round with nothing to move waits 20 ms for the engines (they seal at most every 250 ms): with 3 ms, the rounds
   * ran out before a loaded machine's engines had written, and "did not settle" failed a run in two under load.
   */
  async settle(done: () => Promise<boolean> = async () => true, limit = 4000): Promise<void> {
    let quiet = 0;
    let movedRounds = 0;
    for (let round = 0; round < limit; round += 1) {
      const moved = this.step();
      await new Promise((resolve) => setTimeout(resolve, moved ? (this.random() < 0.7 ? 0 : 3) : 20));
      if (moved) {
        quiet = 0;
        movedRounds += 1;
        continue;
      }
      quiet += 1;
      if (quiet > 5 && (await done())) return;
    }
    // Many moved rounds: the devices kept writing (a loop); few: they stopped in a state `done` does not accept.
    throw new Error(`replication did not settle: ${movedRounds} of ${limit} rounds moved a document`);
  }
}

export const LAPTOP = { id: 'device-laptop', name: 'Laptop' };
export const PHONE = { id: 'device-phone', name: 'Phone' };

let sharedKeys: Promise<SyncKeys> | undefined;
/** One key document for every test (its 100,000 PBKDF2 rounds are the slow part of attaching). */
export const testKeys = () => (sharedKeys ??= newKeyDocument('correct horse battery staple', 100_000).then((made) => made.keys));

/**
 * Two devices, a laptop and a phone: each a tab over its own IndexedDB with its own mirror, joined to one server by a
 * replicator that delays, duplicates and reorders as `seed` says. `prepare` runs on the tabs before sync is attached.
 */
export async function simulatedDevices(
  seed: number,
  { tabs = {}, prepare }: { tabs?: { laptop?: Partial<TabOptions>; phone?: Partial<TabOptions> }; prepare?: (laptop: TestTab, phone: TestTab) => Promise<void> } = {},
) {
  const server = new SimulatedServer();
  const laptopMirror = new SimulatedMirror(server);
  const phoneMirror = new SimulatedMirror(server);
  const replicator = new SimulatedReplicator(server, [laptopMirror, phoneMirror], randomFrom(seed));
  const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), ...tabs.laptop });
  const phone = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), ...tabs.phone });
  await prepare?.(laptop, phone);
  await laptop.host.sync.attach(laptopMirror, await testKeys(), LAPTOP);
  await phone.host.sync.attach(phoneMirror, await testKeys(), PHONE);
  return { server, laptopMirror, phoneMirror, replicator, laptop, phone };
}

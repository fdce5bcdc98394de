import { describe, expect, it } from 'vitest';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';
import type { SyncPayload } from '../../src/schema/sync/sync';
import { seal } from '../../src/worker/sync/documents/sync-crypto';
import { SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';

// A write of a document this device wrote last, once the mirror's change feed handed that revision back, reads nothing
// from the mirror first (held-documents.ts): a synced question round cost a read of the mirror per push. What the feed
// hands on next (another device's revision, a deletion) is never written under, or taken as held, after that.

const ID = 'doc-conversation';
const record = (title: string): SyncPayload => ({ kind: 'conversation-deleted', conversationId: title, writer: 'device-laptop', at: 1 });

/** A SealedDocuments over a simulated mirror, its reads counted, and the feed's handing back of what the mirror holds now. */
async function setUp() {
  const keys = await testKeys();
  const mirror = new SimulatedMirror(new SimulatedServer());
  const reads: string[][] = [];
  const getMany = mirror.getMany.bind(mirror);
  mirror.getMany = (ids) => {
    reads.push(ids);
    return getMany(ids);
  };
  const sealed = new SealedDocuments(mirror, keys);
  const stored = () => structuredClone(mirror.local.documents.get(ID)!);
  const opened = async () => sealed.read(stored().document);
  /** The feed hands on the document as the mirror holds it now: true when it is this device's own write. */
  const handBack = () => sealed.wroteIt(stored().document);
  /** Another device's revision lands in the mirror (replicated), over whatever it holds. */
  const another = async (payload: SyncPayload) => {
    const current = stored();
    mirror.local.receive({ document: { _id: ID, _rev: `${current.generation + 1}-zzzzzz`, e: 1, ...(await seal(keys, JSON.stringify(payload))) }, generation: current.generation + 1, hash: 'zzzzzz' });
  };
  return { mirror, reads, sealed, stored, opened, handBack, another };
}

describe("a document this device wrote last, handed back by the mirror's feed (sync)", () => {
  it('is written again without a read of the mirror; one not handed back yet is read first', async () => {
    const { reads, sealed, stored, opened, handBack } = await setUp();
    await sealed.write(ID, record('one'));
    expect(reads).toEqual([[ID]]);
    // Written again before the feed handed the first revision back: read first, as before.
    await sealed.write(ID, record('two'));
    expect(reads).toHaveLength(2);
    expect(handBack()).toBe(true);
    await sealed.write(ID, record('three'));
    expect(reads).toHaveLength(2);
    expect(await opened()).toEqual(record('three'));
    expect(stored().generation).toBe(3);
    // The same payload again is not written (no new revision), still without a read.
    expect(handBack()).toBe(true);
    await sealed.write(ID, record('three'));
    expect(reads).toHaveLength(2);
    expect(stored().generation).toBe(3);
  });

  it("is not written under a revision another device's replaced: the write goes over the newest, none is lost", async () => {
    const { sealed, stored, opened, handBack, another } = await setUp();
    await sealed.write(ID, record('mine'));
    expect(handBack()).toBe(true);
    // Another device's revision lands before the feed hands it on: the remembered revision is stale.
    await another(record('theirs'));
    await sealed.write(ID, record('mine again'));
    expect(await opened()).toEqual(record('mine again'));
    expect(stored().generation).toBe(3);
  });

  it("once the feed handed on another device's revision, a payload remembered as held is written again over it", async () => {
    const { reads, sealed, opened, handBack, another } = await setUp();
    await sealed.write(ID, record('mine'));
    expect(handBack()).toBe(true);
    await another(record('theirs'));
    // The feed hands the other revision on: what this device wrote is no longer what the mirror holds.
    expect(handBack()).toBe(false);
    await sealed.write(ID, record('mine'));
    expect(reads).toHaveLength(2);
    expect(await opened()).toEqual(record('mine'));
  });

  it('a deletion the feed handed on (not opened) is not taken as held either', async () => {
    const { mirror, reads, sealed, stored, opened, handBack } = await setUp();
    await sealed.write(ID, record('mine'));
    expect(handBack()).toBe(true);
    const current = stored();
    mirror.local.receive({ document: { _id: ID, _rev: `${current.generation + 1}-zzzzzz`, _deleted: true }, generation: current.generation + 1, hash: 'zzzzzz' });
    sealed.heard(stored().document);
    await sealed.write(ID, record('mine'));
    expect(reads).toHaveLength(2);
    expect(await opened()).toEqual(record('mine'));
  });

  it('a write that failed leaves nothing held: the next one reads the mirror', async () => {
    const { mirror, reads, sealed, handBack } = await setUp();
    await sealed.write(ID, record('one'));
    expect(handBack()).toBe(true);
    const putMany = mirror.putMany.bind(mirror);
    mirror.putMany = async (documents) => documents.map(() => new Error('refused'));
    await expect(sealed.write(ID, record('two'))).rejects.toThrow('refused');
    mirror.putMany = putMany;
    await sealed.write(ID, record('two'));
    expect(reads).toHaveLength(2);
  });
});

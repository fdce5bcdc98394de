import { afterEach, describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import { LAPTOP, SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';
import type { Conversation, Message } from '../../src/schema/records';

// docs/architecture.md, "Sync": what a synced round costs the device that runs it. The push queue reads the records a
// round wrote to seal them; read one at a time, a round cost one IndexedDB transaction per record it wrote.

/** Counts the transactions opened on this process's IndexedDB (fake-indexeddb) from now on, by mode. */
function countTransactions() {
  const counted = { readonly: 0, readwrite: 0 };
  const prototype = globalThis.IDBDatabase.prototype;
  const original = prototype.transaction;
  prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    counted[args[1] === 'readwrite' ? 'readwrite' : 'readonly'] += 1;
    return original.apply(this, args);
  } as IDBDatabase['transaction'];
  return { counted, restore: () => (prototype.transaction = original) };
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('the transactions a synced round adds on the device that runs it (sync)', () => {
  it('a batch of written records is read for sealing in one transaction, however many records it holds', async () => {
    const server = new SimulatedServer();
    const mirror = new SimulatedMirror(server);
    const laptop = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const engine = await laptop.host.sync.attach(mirror, await testKeys(), LAPTOP);
    const conversation: Conversation = { id: 'round', title: 'A round', createdAt: 1, updatedAt: 2, runState: 'idle', completedSteps: 1 };
    const messages: Message[] = Array.from({ length: 6 }, (_, seq) => ({ id: `round-m${seq}`, conversationId: 'round', seq, role: seq % 2 ? 'assistant' : 'user', blocks: [{ type: 'text', text: `Message ${seq}` }], status: 'complete', createdAt: seq, updatedAt: seq }));

    const transactions = countTransactions();
    restore = transactions.restore;
    // One write of the conversation and its messages (as a round's last write is), then what sync does with it.
    await laptop.host.store.write({ conversation, messages });
    const before = mirror.local.documents.size;
    // All seven records sealed into the mirror, and nothing more on its way.
    await expect.poll(() => mirror.local.documents.size - before === 7 && !engine.writesPending, { timeout: 10_000, interval: 10 }).toBe(true);
    restore();

    expect(transactions.counted.readwrite).toBe(1);
    expect(transactions.counted.readonly).toBe(1);
  });
});

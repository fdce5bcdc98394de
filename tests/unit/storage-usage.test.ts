import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/schema/records';
import { openParleyDatabase } from '../../src/worker/store/database';
import { conversationSizes } from '../../src/worker/store/storage-usage';
import { uniqueDatabaseName } from './host-harness';

function message(conversationId: string, seq: number): Message {
  return { id: `${conversationId}-m${String(seq).padStart(5, '0')}`, conversationId, seq, role: 'user', blocks: [{ type: 'text', text: 'x'.repeat(100) }], status: 'complete', createdAt: 1, updatedAt: 1 };
}

describe('the size of stored conversations', () => {
  it('does not hold back a conversation write until every message was read', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    const writing = database.transaction(['conversations', 'messages'], 'readwrite');
    await writing.objectStore('conversations').put({ id: 'c1', title: 'Big', createdAt: 1, updatedAt: 1, runState: 'idle', completedSteps: 0 });
    for (let seq = 0; seq < 1000; seq += 1) await writing.objectStore('messages').put(message('c1', seq));
    await writing.done;

    let measured = false;
    const sizing = conversationSizes(database, 10).then((sizes) => {
      measured = true;
      return sizes;
    });
    // An answer (or a streaming reply) writes while Settings measures: it must land between two batches, not after all.
    await database.put('messages', message('c1', 1000));
    expect(measured).toBe(false);
    const sizes = await sizing;
    expect(sizes.conversations).toBe(1);
    expect(sizes.largest[0]).toMatchObject({ conversationId: 'c1', title: 'Big' });
    expect(sizes.largest[0]!.messages).toBeGreaterThanOrEqual(1000);
    database.close();
  });

  it('counts the files sent with a conversation’s messages, so one with a large image is listed as large', async () => {
    const database = await openParleyDatabase(uniqueDatabaseName());
    for (const id of ['text', 'image']) await database.put('conversations', { id, title: id, createdAt: 1, updatedAt: 1, runState: 'idle', completedSteps: 0 });
    for (let seq = 0; seq < 20; seq += 1) await database.put('messages', message('text', seq));
    await database.put('messages', { ...message('image', 0), attachments: [{ id: 'f', name: 'photo.jpg', mimeType: 'image/jpeg', size: 5_000_000, kind: 'image' }] });
    const sizes = await conversationSizes(database, 10);
    expect(sizes.largest.map((size) => size.conversationId)).toEqual(['image', 'text']);
    expect(sizes.largest[0]!.bytes).toBeGreaterThan(5_000_000);
    database.close();
  });
});

import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, uniqueDatabaseName } from './host-harness';
import type { Message } from '../../src/schema/records';

// Records another device wrote are stored in one transaction per batch, their reads and writes asked together
// (conversation-store.ts, applyRemote): the same outcome as one message after the other, the older never over the newer.

function message(seq: number, text: string, updatedAt: number): Message {
  return { id: `remote-m${seq}`, conversationId: 'remote', seq, role: 'assistant', blocks: [{ type: 'text', text }], status: 'complete', createdAt: 1, updatedAt };
}

const textOf = (found: Message | undefined) => found?.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('storing other devices’ messages (sync)', () => {
  it('keeps the newest copy of a message given twice in one batch, in either order, and never writes an older one over the stored', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    const { store } = tab.host;
    await store.applyRemote({ messages: [message(0, 'newer', 20), message(0, 'older', 10), message(1, 'older', 10), message(1, 'newer', 20), message(2, 'first', 10), message(2, 'second', 10)] });
    const texts = async () => (await store.allMessages('remote')).map(textOf);
    expect(await texts()).toEqual(['newer', 'newer', 'second']);
    await store.applyRemote({ messages: [message(0, 'stale', 15), message(1, 'newest', 30)] });
    expect(await texts()).toEqual(['newer', 'newest', 'second']);
  });
});

import { describe, expect, it } from 'vitest';
import { SimulatedMirror, SimulatedServer, testKeys } from './sync-simulation';
import type { Message } from '../../src/schema/records';
import { SEGMENT_CHARACTERS } from '../../src/schema/sync/sync';
import { MessageSegments } from '../../src/worker/sync/documents/message-segments';
import { SealedDocuments } from '../../src/worker/sync/documents/sealed-documents';

// Where a conversation's new messages go (docs/architecture.md, "Sync"): the last segment, until its messages, at their
// sizes now, hold SEGMENT_CHARACTERS of plaintext; then the next one.

function message(seq: number, characters: number): Message {
  const createdAt = 1_700_000_000_000 + seq;
  return { id: `c1-m${seq}`, conversationId: 'c1', seq, role: 'assistant', blocks: [{ type: 'text', text: 'x'.repeat(characters) }], status: 'complete', createdAt, updatedAt: createdAt };
}

async function segments(): Promise<MessageSegments> {
  const mirror = new SimulatedMirror(new SimulatedServer());
  const keys = await testKeys();
  return new MessageSegments({ mirror, keys, sealed: new SealedDocuments(mirror, keys) });
}

describe('where messages are placed in segments (sync)', () => {
  it('a new message opens the next segment once the last one is full at its messages’ sizes now, grown or shrunk since placed', async () => {
    const placed = await segments();
    const quarter = SEGMENT_CHARACTERS / 4;
    await placed.place([message(0, quarter), message(1, quarter)]);
    // The first grows (a streaming reply) to fill the segment with the second: the third opens segment 1.
    await placed.place([message(0, 3 * quarter - 1000)]);
    expect(await placed.place([message(2, 500)])).toEqual([{ conversationId: 'c1', index: 1 }]);
    // Segment 1 shrinks back to nothing much: the next goes there, not to a new one.
    await placed.place([message(2, 10)]);
    expect(await placed.place([message(3, quarter)])).toEqual([{ conversationId: 'c1', index: 1 }]);
    expect(placed.messageIds({ conversationId: 'c1', index: 0 })).toEqual(['c1-m0', 'c1-m1']);
    expect(placed.messageIds({ conversationId: 'c1', index: 1 })).toEqual(['c1-m2', 'c1-m3']);
  });

  it('a message placed with others in one call counts toward the segment the next one is placed in', async () => {
    const placed = await segments();
    const third = SEGMENT_CHARACTERS / 3;
    const places = await placed.place([message(0, third), message(1, third), message(2, third), message(3, 10)]);
    expect(places).toEqual([
      { conversationId: 'c1', index: 0 },
      { conversationId: 'c1', index: 1 },
    ]);
    expect(placed.messageIds({ conversationId: 'c1', index: 1 })).toEqual(['c1-m2', 'c1-m3']);
  });
});

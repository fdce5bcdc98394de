import type { Message } from '../../../schema/records';
import type { SegmentPlace } from './message-segments';

/** How many segments' messages are kept (the oldest sealed forgotten; each is about SEGMENT_CHARACTERS of plaintext). */
const SEGMENTS_KEPT = 16;

/**
 * The messages of the segments this device sealed last, as sealed or noted since (docs/architecture.md, "Sync"). A
 * segment sealed again because one of its messages changed takes the others from here, not from the store: a synced
 * question round read them back at every push. A copy goes when what it copies may have changed without a note this
 * worker holds: a version deleted, another tab's write of its conversation, a write that failed, a segment another
 * device wrote, a deleted conversation; and a message noted without its record is read again.
 */
export class SegmentCopies {
  /** Each kept message by id. */
  private readonly messages = new Map<string, Message>();
  /** Each kept segment's message ids, the segment sealed longest ago first. */
  private readonly segments = new Map<string, { conversationId: string; ids: string[] }>();

  /** The copies of those of `ids` kept here. */
  take(ids: readonly string[]): Map<string, Message> {
    const found = new Map<string, Message>();
    for (const id of ids) {
      const message = this.messages.get(id);
      if (message) found.set(id, message);
    }
    return found;
  }

  /** A segment written to the mirror with these messages. */
  sealed(place: SegmentPlace, messages: readonly Message[]): void {
    this.dropSegment(place);
    this.segments.set(keyOf(place), { conversationId: place.conversationId, ids: messages.map(({ id }) => id) });
    for (const message of messages) this.messages.set(message.id, message);
    while (this.segments.size > SEGMENTS_KEPT) this.dropKey(this.segments.keys().next().value!);
  }

  /** A message written here and noted with its record: a kept copy of it becomes that record. */
  noted(message: Message): void {
    if (this.messages.has(message.id)) this.messages.set(message.id, message);
  }

  drop(ids: Iterable<string>): void {
    for (const id of ids) this.messages.delete(id);
  }

  dropSegment(place: SegmentPlace): void {
    this.dropKey(keyOf(place));
  }

  dropConversation(conversationId: string): void {
    for (const [key, segment] of this.segments) if (segment.conversationId === conversationId) this.dropKey(key);
  }

  private dropKey(key: string): void {
    const segment = this.segments.get(key);
    if (!segment) return;
    this.segments.delete(key);
    this.drop(segment.ids);
  }
}

function keyOf(place: SegmentPlace): string {
  return `${place.conversationId}\u0000${place.index}`;
}

import type { Message } from '../../../schema/records';
import { SEGMENT_CHARACTERS, SEGMENT_MESSAGES, type SyncPayload } from '../../../schema/sync/sync';
import type { Mirror } from '../mirror/mirror';
import type { SealedDocuments } from './sealed-documents';
import { SegmentCopies } from './segment-copies';
import { documentId, type SyncKeys } from './sync-crypto';

export type Segment = Extract<SyncPayload, { kind: 'segment' }>;

/** One segment of one conversation. */
export interface SegmentPlace {
  conversationId: string;
  index: number;
}

/**
 * Where a conversation's messages travel: each segment's message ids in the order they were placed there, and the
 * plaintext characters each segment's messages come to (their sizes summed as they are placed or resized).
 */
interface Layout {
  segments: string[][];
  characters: number[];
  where: Map<string, number>;
}

/** How many segment ids of each conversation are read at once while layouts are read from the mirror. */
const PROBE = 4;

/** A segment's document id: deterministic, so every write of one segment is a revision of one document. */
export function segmentId(keys: SyncKeys, place: SegmentPlace): Promise<string> {
  return documentId(keys, 'segment', place.conversationId, String(place.index));
}

/** The key a segment's newest received version is kept under (RunnerBook.received), beside conversations' ids. */
export function segmentKey(place: SegmentPlace): string {
  return `${place.conversationId}\u0000${place.index}`;
}

/**
 * Which segment each message of a conversation travels in (docs/architecture.md, "Sync"). A message keeps the segment
 * it was first placed in; a new one goes to the conversation's last segment, or opens the next one when that holds
 * `SEGMENT_CHARACTERS` of plaintext (or `SEGMENT_MESSAGES` messages). What is known is read from the mirror's segments
 * on first need (whoever wrote them, under whichever limits) and grows with the segments other devices write, so a
 * runner's rewrite of a segment keeps every message another runner put there, and limits changed between builds need
 * no migration: a segment closed under older limits is continued under these.
 */
export class MessageSegments {
  private readonly layouts = new Map<string, Layout>();
  /** Each placed message's plaintext size, as last written or read. */
  private readonly sizes = new Map<string, number>();
  /** Layouts being read from the mirror: a segment heard meanwhile is taken into them too. */
  private readonly loading = new Map<string, Layout>();
  /** The messages of the segments sealed here last, so a segment sealed again need not read them back. */
  readonly copies = new SegmentCopies();

  constructor(private readonly deps: { mirror: Mirror; keys: SyncKeys; sealed: SealedDocuments }) {}

  /** Places the messages (in the order given, those not placed yet) and says which segments hold them. */
  async place(messages: readonly Message[]): Promise<SegmentPlace[]> {
    await this.load([...new Set(messages.map((message) => message.conversationId))]);
    const touched = new Map<string, SegmentPlace>();
    for (const message of messages) {
      const size = JSON.stringify(message).length;
      const layout = this.layouts.get(message.conversationId)!;
      let index = layout.where.get(message.id);
      if (index === undefined) {
        this.sizes.set(message.id, size);
        index = this.tailFor(layout, size);
        addTo(layout, index, message.id, size);
      } else {
        layout.characters[index]! += size - (this.sizes.get(message.id) ?? 0);
        this.sizes.set(message.id, size);
      }
      const place = { conversationId: message.conversationId, index };
      touched.set(segmentKey(place), place);
    }
    return [...touched.values()];
  }

  /** The ids of the messages a segment holds, in order. */
  messageIds(place: SegmentPlace): readonly string[] {
    return this.layouts.get(place.conversationId)?.segments[place.index] ?? [];
  }

  /** A segment another device wrote: what it holds is placed there, if this device knows the conversation's layout. */
  heard(segment: Segment): void {
    const layout = this.layouts.get(segment.conversationId) ?? this.loading.get(segment.conversationId);
    if (layout) this.take(layout, segment);
    this.copies.dropSegment(segment);
  }

  /** A deleted conversation: nothing of it is written again. */
  forget(conversationId: string): void {
    const layout = this.layouts.get(conversationId);
    for (const id of layout?.where.keys() ?? []) this.sizes.delete(id);
    this.layouts.delete(conversationId);
    this.copies.dropConversation(conversationId);
  }

  /** The segment a new message of `size` characters goes to: the last, unless it is full. */
  private tailFor(layout: Layout, size: number): number {
    const last = layout.segments.length - 1;
    if (last < 0) return 0;
    const ids = layout.segments[last]!;
    const characters = layout.characters[last]!;
    const full = ids.length >= SEGMENT_MESSAGES || (ids.length > 0 && characters + size > SEGMENT_CHARACTERS);
    return full ? last + 1 : last;
  }

  private take(layout: Layout, segment: Segment): void {
    for (const message of segment.messages) {
      if (layout.where.has(message.id)) continue;
      const size = JSON.stringify(message).length;
      this.sizes.set(message.id, size);
      addTo(layout, segment.index, message.id, size);
    }
  }

  /** The layouts of conversations not known yet, read from the segments the mirror holds (PROBE ids at a time). */
  private async load(conversationIds: string[]): Promise<void> {
    const found = new Map(conversationIds.filter((id) => !this.layouts.has(id)).map((id): [string, Layout] => [id, { segments: [], characters: [], where: new Map() }]));
    for (const [id, layout] of found) this.loading.set(id, layout);
    try {
      await this.read(found);
    } finally {
      for (const id of found.keys()) this.loading.delete(id);
    }
    for (const [id, layout] of found) this.layouts.set(id, layout);
  }

  private async read(found: Map<string, Layout>): Promise<void> {
    const { mirror, keys, sealed } = this.deps;
    let pending = [...found.keys()];
    for (let start = 0; pending.length > 0; start += PROBE) {
      const places = pending.flatMap((conversationId) => Array.from({ length: PROBE }, (_, offset) => ({ conversationId, index: start + offset })));
      const documents = await mirror.getMany(await Promise.all(places.map((place) => segmentId(keys, place))));
      const opened = await Promise.all(documents.map((document) => (document ? sealed.read(document) : undefined)));
      const complete = new Set(pending);
      places.forEach((place, position) => {
        const payload = opened[position];
        if (!complete.has(place.conversationId)) return;
        if (payload?.kind !== 'segment' || payload.conversationId !== place.conversationId || payload.index !== place.index) complete.delete(place.conversationId);
        else this.take(found.get(place.conversationId)!, payload);
      });
      pending = [...complete];
    }
  }
}

function addTo(layout: Layout, index: number, messageId: string, size: number): void {
  while (layout.segments.length <= index) {
    layout.segments.push([]);
    layout.characters.push(0);
  }
  layout.segments[index]!.push(messageId);
  layout.characters[index]! += size;
  layout.where.set(messageId, index);
}

import type { Conversation, Message } from '../../../schema/records';
import type { SyncPayload } from '../../../schema/sync/sync';
import type { EngineContext } from '../engine-context';
import { segmentId, type SegmentPlace } from './message-segments';
import { documentId } from './sync-crypto';
import { NotedRecords } from './noted-records';
import { measure, PUSH_MEASURE } from '../sync-measures';

/**
 * A conversation's record, one message, every message of a conversation (`messages`: read with one index read), or a
 * deletion. A record noted with the write that committed it (`message`, `conversation`) is sealed as noted, not read
 * again, unless another tab's worker wrote its conversation since (`writtenElsewhere`); one noted without (a retry, a
 * foreign write over it) is read when it is pushed.
 */
type MessageDirty = { kind: 'message'; id: string; conversationId: string; message?: Message; noted?: number };
type RecordDirty = { kind: 'conversation'; id: string; conversation?: Conversation; noted?: number } | { kind: 'deleted'; id: string };
type Dirty = RecordDirty | MessageDirty | { kind: 'messages'; id: string };

/** How long local writes gather before they are sealed and written to the mirror (a streaming reply writes often). */
const PUSH_DELAY_MS = 250;
/** How many documents are sealed together and written to the mirror in one bulk write. */
export const PUSH_CHUNK = 100;
/** How many noted messages are read and placed in segments together (their segments written with one bulk write). */
const MESSAGES_PER_PUSH = 1000;
/** How many whole conversations are read at once (each one read of the store). */
const READ_TOGETHER = 4;
/** How long a write that failed to reach the mirror waits before it is tried again. */
const PUSH_RETRY_MS = 2000;

/** Local writes on their way to the mirror: noted, gathered for a moment, then read, sealed and written in chunks. */
export class PushQueue {
  private readonly dirty = new Map<string, Dirty>();
  private pushTimer: ReturnType<typeof setTimeout> | undefined;
  private pushing: Promise<void> = Promise.resolve();
  /** Writes to the mirror that failed and were noted again for a retry. */
  pushFailures = 0;
  /** Pushes under way (their batch taken, not yet in the mirror). */
  private active = 0;
  /** Whether what was noted with its write is still the stored record (another tab's write, a deleted version). */
  private readonly notes = new NotedRecords();
  /** Told when nothing is left to write; `wrote` says whether the last push put anything into the mirror. */
  onIdle: ((wrote: boolean) => void) | undefined;

  constructor(private readonly context: EngineContext) {}

  /** Notes a record (or a deletion) to be written to the mirror shortly. */
  markDirty(entry: Dirty): void {
    if (this.context.stopped) return;
    const noted = this.notes.note();
    this.dirty.set(`${entry.kind}:${entry.id}`, 'message' in entry || 'conversation' in entry ? { ...entry, noted } : entry);
    if (entry.kind === 'message') {
      if (entry.message) this.context.segments.copies.noted(entry.message);
      else this.context.segments.copies.drop([entry.id]);
    }
    this.schedulePush(PUSH_DELAY_MS);
  }

  /**
   * Another tab's worker wrote records of these conversations (its own engine pushes them): a record this one noted
   * before is read from the store when pushed, not sealed as noted, since the store may hold the other tab's now.
   */
  writtenElsewhere(conversationIds: readonly string[]): void {
    this.notes.writtenElsewhere(conversationIds);
    for (const id of conversationIds) this.context.segments.copies.dropConversation(id);
  }

  /**
   * These message versions were deleted (`message.deleteVersion`): a copy of one noted before, in a batch not pushed
   * yet, is read from the store when pushed (and found gone), not sealed into its segment after the deletion.
   */
  versionsDeleted(messageIds: readonly string[]): void {
    this.notes.versionsDeleted(messageIds);
    this.context.segments.copies.drop(messageIds);
  }

  /**
   * Pushes what is noted now, without waiting out the gathering delay (or a failed write's retry delay), and resolves once
   * that push has run: each noted entry is in the mirror, or noted again for a retry.
   */
  async flush(): Promise<void> {
    if (this.pushTimer) {
      clearTimeout(this.pushTimer);
      this.pushTimer = undefined;
      this.startPush();
    }
    await this.pushing;
  }

  stop(): void {
    if (this.pushTimer) clearTimeout(this.pushTimer);
  }

  /** Nothing noted is waiting to be written to the mirror (a failed write waiting for its retry is not idle). */
  get idle(): boolean {
    return this.dirty.size === 0 && this.pushTimer === undefined && this.active === 0;
  }

  private schedulePush(delay: number): void {
    if (this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      this.startPush();
    }, delay);
  }

  /** Takes what is noted as one batch, pushed after any push under way. */
  private startPush(): void {
    const batch = [...this.dirty.values()];
    this.dirty.clear();
    this.active += 1;
    const written = this.context.sealed.sealedDocuments;
    this.pushing = this.pushing
      .then(() => this.push(batch))
      .catch(() => undefined)
      .finally(() => {
        this.active -= 1;
        if (this.idle && !this.context.stopped) this.onIdle?.(this.context.sealed.sealedDocuments !== written);
      });
  }

  private async push(batch: Dirty[]): Promise<void> {
    const { sealed } = this.context;
    const started = performance.now();
    const bytesBefore = sealed.sealedBytes;
    const documentsBefore = sealed.sealedDocuments;
    const failuresBefore = this.pushFailures;
    try {
      await this.pushEntries(batch);
    } finally {
      measure(PUSH_MEASURE, started, { records: batch.length, documents: sealed.sealedDocuments - documentsBefore, bytes: sealed.sealedBytes - bytesBefore, failures: this.pushFailures - failuresBefore });
    }
  }

  /**
   * Seals the entries into the mirror: records and deletions `PUSH_CHUNK` at a time, then messages as the segments that
   * hold them (`pushMessages`). Read, sealed concurrently and written with one bulk write per chunk (one at a time, an
   * initial upload of 100,000 messages took about an hour). One that fails (the mirror's IndexedDB refusing a write, a
   * conflict that kept coming back) is not dropped: it is noted again and retried a little later, with whatever was
   * noted meanwhile; the rest of its chunk is written.
   */
  private async pushEntries(batch: Dirty[]): Promise<void> {
    const { book } = this.context;
    let failed = 0;
    const retry = (entry: Dirty) => {
      failed += 1;
      if (entry.kind === 'deleted') book.deleted.delete(entry.id);
      if (!this.dirty.has(`${entry.kind}:${entry.id}`)) this.dirty.set(`${entry.kind}:${entry.id}`, entry);
    };
    const records = batch.filter((entry): entry is RecordDirty => entry.kind === 'conversation' || entry.kind === 'deleted');
    const messages = batch.filter((entry) => entry.kind === 'message');
    const wholes = batch.filter((entry) => entry.kind === 'messages');
    // Whole conversations are read from the first while the records are written (an initial upload's), unless a record
    // written first could change what they are (a deletion) or messages go between.
    const readFirst = messages.length === 0 && records.every((entry) => entry.kind !== 'deleted');
    let mine = readFirst ? wholes.filter((entry) => book.runsHere(entry.id)) : [];
    let next = mine.length > 0 ? this.readWhole(mine, 0) : undefined;
    await this.pushRecords(records, retry);
    for (let start = 0; start < messages.length && !this.context.stopped; start += MESSAGES_PER_PUSH) {
      const some = messages.slice(start, start + MESSAGES_PER_PUSH).filter((entry) => book.runsHere(entry.conversationId) && !book.deleted.has(entry.conversationId));
      if (some.length > 0) await this.pushMessages(() => this.readMessages(some), some, retry);
    }
    // Whole conversations, a push's worth of messages at a time: the next one is read, placed and sealed while this one
    // is written to the mirror (two pushed at once and the next read, so a long history is never held whole).
    if (!readFirst) {
      mine = wholes.filter((entry) => book.runsHere(entry.id));
      next = mine.length > 0 ? this.readWhole(mine, 0) : undefined;
    }
    let writing: Promise<void> = Promise.resolve();
    while (next && !this.context.stopped) {
      const { group, messages, end } = await next;
      next = end < mine.length ? this.readWhole(mine, end) : undefined;
      const pushed = this.pushMessages(() => (messages ? Promise.resolve(messages) : Promise.reject(new Error('read failed'))), group, retry);
      await writing;
      writing = pushed;
    }
    await writing;
    this.pushFailures += failed;
    if (failed > 0 && !this.context.stopped) this.schedulePush(PUSH_RETRY_MS);
  }

  /** The messages of `entries`, in order: as noted with their writes, the others read (one read); a deleted one left out. */
  private async readMessages(entries: MessageDirty[]): Promise<Message[]> {
    const noted = (entry: MessageDirty) => (this.notes.current(entry.conversationId, entry.noted, entry.id) ? entry.message : undefined);
    const missing = entries.filter((entry) => !noted(entry)).map((entry) => entry.id);
    const found = new Map<string, Message>();
    if (missing.length > 0) for (const message of await this.context.host.getMessages(missing)) if (message) found.set(message.id, message);
    return entries.flatMap((entry) => noted(entry) ?? found.get(entry.id) ?? []);
  }

  /**
   * Every message of `wholes` from `start` on, READ_TOGETHER conversations read together, until MESSAGES_PER_PUSH are
   * gathered: the entries read (`group`), where the next read starts (`end`), and the messages (none: a read failed).
   */
  private async readWhole(wholes: Dirty[], start: number): Promise<{ group: Dirty[]; messages?: Message[]; end: number }> {
    const group: Dirty[] = [];
    const messages: Message[] = [];
    let end = start;
    try {
      while (end < wholes.length && messages.length < MESSAGES_PER_PUSH) {
        const together = wholes.slice(end, end + READ_TOGETHER);
        end += together.length;
        group.push(...together);
        for (const found of await Promise.all(together.map((entry) => this.context.host.allMessages(entry.id)))) messages.push(...found);
      }
    } catch {
      return { group, end };
    }
    return { group, messages, end };
  }

  /** Conversation records and deletions, `PUSH_CHUNK` at a time: each chunk's payloads read concurrently, one bulk write. */
  private async pushRecords(records: RecordDirty[], retry: (entry: Dirty) => void): Promise<void> {
    const { book, sealed } = this.context;
    for (let start = 0; start < records.length && !this.context.stopped; start += PUSH_CHUNK) {
      const chunk = records.slice(start, start + PUSH_CHUNK);
      const writes: Array<{ entry: Dirty; id: string; payload: SyncPayload }> = [];
      try {
        const prepared = await Promise.all(chunk.map((entry) => this.payloadOf(entry).then((write) => ({ entry, write }), () => ({ entry, write: null }))));
        for (const { entry, write } of prepared) {
          if (write === null) retry(entry);
          else if (write) writes.push({ entry, ...write });
        }
        if (book.changed) await book.save();
      } catch {
        for (const { entry } of writes) retry(entry);
        continue;
      }
      if (this.context.stopped) return;
      const errors = await sealed.writeMany(writes).catch(() => writes.map(() => new Error('write failed')));
      errors.forEach((error, index) => error && retry(writes[index]!.entry));
    }
  }

  /**
   * Messages of conversations this device runs (`read`, for `entries`, noted again if it fails), written as the
   * segments that hold them (see MessageSegments): each segment a message is in is sealed again whole, from the
   * messages it holds as they are stored now.
   */
  private async pushMessages(read: () => Promise<Message[]>, entries: Dirty[], retry: (entry: Dirty) => void): Promise<void> {
    const { book, host, keys, sealed, segments } = this.context;
    const writes: Array<{ place: SegmentPlace; id: string; payload: SyncPayload }> = [];
    let dirty: Message[];
    try {
      dirty = await read();
      const places = await segments.place(dirty);
      const known = new Map(dirty.map((message) => [message.id, message]));
      // The segments' other messages as sealed here last (segment-copies.ts); only those not kept are read.
      const others = places.flatMap((place) => segments.messageIds(place).filter((id) => !known.has(id)));
      const copied = segments.copies.take(others);
      copied.forEach((message, id) => known.set(id, message));
      const unread = others.filter((id) => !copied.has(id));
      if (unread.length > 0) (await host.getMessages(unread)).forEach((message) => message && known.set(message.id, message));
      for (const place of places) {
        const messages = segments.messageIds(place).flatMap((id) => known.get(id) ?? []);
        if (messages.length === 0) continue;
        const payload: SyncPayload = { kind: 'segment', ...place, messages, writer: book.device.id, epoch: book.epochOf(place.conversationId) };
        writes.push({ place, id: await segmentId(keys, place), payload });
      }
    } catch {
      for (const entry of entries) retry(entry);
      return;
    }
    if (this.context.stopped) return;
    const errors = await sealed.writeMany(writes).catch(() => writes.map(() => new Error('write failed')));
    errors.forEach((error, index) => {
      const { place, payload } = writes[index]!;
      if (!error) {
        if (payload.kind === 'segment') segments.copies.sealed(place, payload.messages);
        return;
      }
      segments.copies.dropSegment(place);
      for (const id of segments.messageIds(place)) retry({ kind: 'message', id, conversationId: place.conversationId });
    });
    // The files follow their messages' segments (attachment-sync.ts, `uploadAfter`): one that fails notes its message again.
    const failed = await this.context.attachments.uploadAfter(dirty, () => this.context.stopped);
    for (const message of failed) retry({ kind: 'message', id: message.id, conversationId: message.conversationId });
  }

  /** What a conversation or deletion entry writes to the mirror (undefined: nothing); its bookkeeping is noted for one `save` per chunk. */
  private async payloadOf(entry: RecordDirty): Promise<{ id: string; payload: SyncPayload } | undefined> {
    const { book, keys, host } = this.context;
    if (entry.kind === 'deleted') {
      if (book.deleted.has(entry.id)) return undefined;
      book.deleted.add(entry.id);
      book.changed = true;
      this.context.segments.forget(entry.id);
      return { id: await documentId(keys, 'conversation', entry.id), payload: { kind: 'conversation-deleted', conversationId: entry.id, writer: book.device.id, at: host.now() } };
    }
    if (book.deleted.has(entry.id)) return undefined;
    const conversation = (this.notes.current(entry.id, entry.noted) ? entry.conversation : undefined) ?? (await host.getConversation(entry.id));
    if (!conversation || !book.runsHere(conversation.id)) return undefined;
    if (!book.authored.has(conversation.id)) {
      book.authored.add(conversation.id);
      book.changed = true;
    }
    return { id: await documentId(keys, 'conversation', conversation.id), payload: { kind: 'conversation', conversation, writer: book.device.id, epoch: book.epochOf(conversation.id) } };
}
}

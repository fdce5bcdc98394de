import type { AttachmentChunkHeader } from '../../../schema/sync/attachment-chunks';
import type { StoredAttachment } from '../../../schema/attachments/attachments';
import type { Message } from '../../../schema/records';
import { WireError } from '../../../schema/wire-error';
import type { EncryptedDocument, Mirror } from '../mirror/mirror';
import type { RefusalKind } from '../documents/refusal-log';
import type { SealedDocuments } from '../documents/sealed-documents';
import type { SyncKeys } from '../documents/sync-crypto';
import { CHUNK_BYTES, chunkId, openChunk, joinChunks, sameFile, sealAndWrite, sealChunk, sha256Hex, splitIntoChunks } from './attachment-chunks';
import { FileArrivals } from './file-arrivals';
import { HeldFiles } from './held-files';
import { FileTakes } from './file-takes';

/**
 * How many chunks are sealed and sent together (about 1.4 MB of ciphertext): few, so the server holds the first of a
 * file's chunks, and the other device's pull takes them, while the next are sealed and sent.
 */
const CHUNKS_PER_WRITE = 2;
/** How long a file sealed ahead of its message's segment waits for it (`prepare`): then its bytes are let go. */
const SEALED_AHEAD_MS = 30_000;
/**
 * How many of a file's writes go at once. Each resolves when the mirror's IndexedDB write has ended, which on a busy
 * device (the reply's run writing too) took up to 0.9 s for 1.4 MB while the server took its send in 0.1–0.2 s: with
 * two at once, the server and the other device waited for this mirror. Four keep about 5.6 MB of sealed chunks in memory.
 */
const WRITES_AT_ONCE = 4;

/** A file whose chunks are arriving: those here, and the taking of the others from the server. */
interface ArrivingFile {
  header: AttachmentChunkHeader;
  parts: Map<number, Uint8Array>;
  taking?: { cancel(): void };
}

/** What attachment sync needs of the device: its stored files, and a place for a file that arrived. */
export interface AttachmentHost {
  readAttachment(attachmentId: string): Promise<StoredAttachment | undefined>;
  /**
   * Stores the bytes of a file another device sent, whole, in one IndexedDB write: the record is both the bytes and
   * what says the file is here, so a crash or a failed write leaves both or neither. Then tells this tab's page.
   */
  storeAttachment(record: StoredAttachment): Promise<void>;
  /**
   * A file's bytes all arrived but could not be stored (a full disk): a page showing the file as still on its way reads
   * it again, and is told why (the read tries to store it once more).
   */
  couldNotStore(attachmentId: string): void;
}

interface AttachmentSyncDeps {
  mirror: Mirror;
  keys: SyncKeys;
  host: AttachmentHost;
  /** Counts what was written, as every sealed write is counted ("Synced" waits for writes to leave). */
  sealed: Pick<SealedDocuments, 'sealedDocuments' | 'sealedBytes'>;
  /** A conversation deleted on some device: its files are not stored again. */
  isDeleted(conversationId: string): boolean;
  refused(kind: RefusalKind): void;
}

/**
 * The bytes of files, synced (docs/architecture.md, "Sync"). The device that holds a file seals its chunks as soon as
 * the message naming it is stored and sends them to the server and the mirror once that message's segment is written,
 * and another device shows the message with the file "not here yet" until the bytes are stored there. What arrives is put
 * together as the chunks come (the rest taken from the server once the first is here) and stored in this device's
 * `attachments` store (where a model step and an export read files, and which "Turn off sync" keeps); a file whose
 * chunks came while this device was closed is put together from the mirror the first time it is needed (`fetch`).
 */
export class AttachmentSync {
  private readonly held: HeldFiles;
  /** Files whose chunks are being written, by id. */
  private readonly uploading = new Map<string, Promise<void>>();
  /** Files sealed ahead of their message's segment (`prepare`): what lets their writes go, or drops them. */
  private readonly sealedAhead = new Map<string, (go: boolean) => void>();
  /** Chunks of files still arriving, by file. */
  private readonly arriving = new Map<string, ArrivingFile>();
  /** Files put together here (stored, or being stored): a chunk of theirs arriving late is not a new file. */
  private readonly completed = new Set<string>();
  /** Chunks taken from the server: the rest of files whose first chunk is here, and the first chunks of files asked for. */
  private readonly rest: FileTakes;
  private readonly firsts: FileTakes;
  /** Files whose first chunk is being taken (`seek`). */
  private readonly sought = new Set<string>();
  /** Chunk documents this device wrote: handed back by the mirror, they are not opened again. */
  private readonly written = new Set<string>();
  private stopped = false;
  /** Model steps waiting for files on their way here (`arrival`). */
  private readonly arrivals = new FileArrivals();

  constructor(private readonly deps: AttachmentSyncDeps) {
    const accept = (document: EncryptedDocument) => void this.accept(document).catch(() => undefined);
    // Two files' rests and one first chunk at once: three requests held open beside the live replication's.
    this.rest = new FileTakes(deps.mirror, accept, 2);
    this.firsts = new FileTakes(deps.mirror, accept, 1);
    this.held = new HeldFiles(deps.mirror);
  }

  /**
   * Starts reading and sealing a message's files as soon as the message is stored, while its segment is pushed: their
   * writes wait until `uploadAfter` says the segment is written (or the engine stops), so the segment goes first.
   */
  prepare(message: Message): void {
    for (const meta of message.attachments ?? []) {
      if (this.uploading.has(meta.id) || this.stopped) continue;
      const ready = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => this.release(meta.id, false), SEALED_AHEAD_MS);
        this.sealedAhead.set(meta.id, (go) => (clearTimeout(timer), go ? resolve() : reject(new Error('not written: its message was not pushed'))));
      });
      ready.catch(() => undefined); // not awaited when the file needs no writes (held, or not here)
      void this.uploadFile(meta.id, meta.mimeType, ready).catch(() => undefined);
    }
  }

  /** Writes the chunks of a message's files that the mirror lacks and this device holds (one sealed ahead goes now). */
  async upload(message: Message): Promise<void> {
    for (const meta of message.attachments ?? []) this.release(meta.id);
    await Promise.all((message.attachments ?? []).map((meta) => this.uploadFile(meta.id, meta.mimeType)));
  }

  /**
   * The files of messages whose segments were just written (push-queue.ts awaits them: "Synced" waits), so a message
   * reaches the other devices before its bytes, saying "not here yet" until they follow. Returns the messages whose
   * files failed; a device closed midway sends them at its next start (`reconcile` pushes every message it runs).
   */
  async uploadAfter(messages: Message[], stopped: () => boolean): Promise<Message[]> {
    const failed: Message[] = [];
    for (const message of messages) if (message.attachments?.length && !stopped()) await this.upload(message).catch(() => failed.push(message));
    return failed;
  }

  private release(attachmentId: string, go = true): void {
    this.sealedAhead.get(attachmentId)?.(go);
    this.sealedAhead.delete(attachmentId);
  }

  private uploadFile(attachmentId: string, mimeType: string, ready = Promise.resolve()): Promise<void> {
    let running = this.uploading.get(attachmentId);
    if (!running) {
      running = this.writeChunks(attachmentId, mimeType, ready).finally(() => this.uploading.delete(attachmentId));
      this.uploading.set(attachmentId, running);
    }
    return running;
  }

  /**
   * Seals a file's chunks a few at a time, each few written (`putNew`: to the server at once, then to the mirror) while
   * the next are sealed, so the other device can take the first chunks while the last are still being sealed here.
   */
  private async writeChunks(attachmentId: string, mimeType: string, ready: Promise<void>): Promise<void> {
    if (await this.held.has(attachmentId)) return;
    const stored = await this.deps.host.readAttachment(attachmentId);
    if (!stored) return; // not here: the device that holds it writes it
    const bytes = new Uint8Array(await stored.blob.arrayBuffer());
    const parts = splitIntoChunks(bytes);
    const file = { v: 1 as const, attachmentId, conversationId: stored.conversationId, messageId: stored.messageId, mimeType, size: bytes.length, count: parts.length, sha256: await sha256Hex(bytes) };
    const seal = async (index: number) => {
      const id = await chunkId(this.deps.keys, attachmentId, index);
      this.written.add(id);
      return sealChunk(this.deps.keys, id, { ...file, index }, parts[index]!);
    };
    const write = async (documents: EncryptedDocument[]) => {
      const error = (await this.deps.mirror.putNew(documents)).find(Boolean);
      if (error) throw error;
      this.deps.sealed.sealedDocuments += documents.length;
      this.deps.sealed.sealedBytes += documents.reduce((sum, document) => sum + (document.ct?.length ?? 0), 0);
    };
    await sealAndWrite(parts.length, { perWrite: CHUNKS_PER_WRITE, atOnce: WRITES_AT_ONCE }, seal, write, ready);
    await this.held.note(attachmentId);
  }

  /** A chunk document from the mirror: kept until its file is whole, then the file is checked and stored. */
  async receive(document: EncryptedDocument): Promise<void> {
    if (this.written.delete(document._id)) return; // this device's own write, back from the mirror
    if (this.rest.wasTaken(document._id) || this.firsts.wasTaken(document._id)) return; // taken from the server already
    await this.accept(document);
  }

  /** Stops taking chunks from the server (the engine stopped). */
  stop(): void {
    this.stopped = true;
    for (const id of [...this.sealedAhead.keys()]) this.release(id, false);
    this.rest.stop();
    this.firsts.stop();
    this.arrivals.stop();
  }

  private async accept(document: EncryptedDocument): Promise<void> {
    const chunk = await openChunk(this.deps.keys, document);
    if (!chunk) return this.deps.refused('unreadable');
    const { header } = chunk;
    if (document._id !== (await chunkId(this.deps.keys, header.attachmentId, header.index)) || header.index >= header.count) return this.deps.refused('misplaced');
    if (this.deps.isDeleted(header.conversationId) || this.completed.has(header.attachmentId)) return;
    this.arrivals.chunk(header.attachmentId);
    let entry = this.arriving.get(header.attachmentId);
    if (!entry || !sameFile(entry.header, header)) {
      if (await this.deps.host.readAttachment(header.attachmentId)) return this.arrivals.here(header.attachmentId); // stored by another tab
      entry?.taking?.cancel();
      entry = { header, parts: new Map() };
      this.arriving.set(header.attachmentId, entry);
      if (header.count > 1) this.takeRest(entry, header.index);
    }
    entry.parts.set(header.index, chunk.bytes);
    if (entry.parts.size < header.count || this.arriving.get(header.attachmentId) !== entry) return;
    this.arriving.delete(header.attachmentId);
    this.completed.add(header.attachmentId);
    entry.taking?.cancel();
    // Not stored (not the file it said it was, or the write failed): other chunks may be, or `fetch` puts it together
    // from the mirror when it is needed. A failed write is not thrown: the receiver goes on with what came after.
    const stored = await this.store(header, Array.from({ length: header.count }, (_, index) => entry.parts.get(index)!)).catch((error: unknown) => {
      if (error instanceof WireError && error.code === 'storage_full') this.deps.host.couldNotStore(header.attachmentId);
      this.arrivals.end(header.attachmentId); // a step waiting for it is told why at once (its fetch tries again)
      return false;
    });
    if (!stored) this.completed.delete(header.attachmentId);
  }

  /**
   * The first chunk of a file arrived: the others are taken from the server as they are there (mirror.ts
   * `takeFromServer`), opened as they come, rather than when the live replication gets round to them (it pulled a
   * 5 MB image a chunk or two per round, about a second each on a loaded machine). Given up when they stop coming (a
   * sender closed midway: file-takes.ts): the replication still brings them.
   */
  private takeRest(entry: ArrivingFile, arrived: number): void {
    const { attachmentId, count } = entry.header;
    void Promise.all(Array.from({ length: count }, (_, index) => chunkId(this.deps.keys, attachmentId, index))).then((ids) => {
      if (!this.stopped && this.arriving.get(attachmentId) === entry) entry.taking = this.rest.take(ids.filter((_, index) => index !== arrived));
    });
  }

  /**
   * A file asked for (shown, or read for a model step) whose first chunk is not here: that chunk is taken from the
   * server as soon as it is there, rather than in a later batch of the live replication, and the rest follow it.
   */
  private seek(attachmentId: string, firstId: string): void {
    if (this.stopped || this.sought.has(attachmentId) || this.arriving.has(attachmentId) || this.completed.has(attachmentId)) return;
    if (this.firsts.take([firstId], () => this.sought.delete(attachmentId))) this.sought.add(attachmentId);
  }

  /**
   * Puts a file together from the chunks the mirror holds and stores it, when it is not stored here yet. True when the
   * file is stored here now; false when some chunk has not arrived (or does not fit the others).
   */
  async fetch(attachmentId: string): Promise<boolean> {
    if (await this.deps.host.readAttachment(attachmentId)) return true;
    const firstId = await chunkId(this.deps.keys, attachmentId, 0);
    const firstDocument = await this.deps.mirror.get(firstId);
    if (!firstDocument) this.seek(attachmentId, firstId);
    const first = firstDocument && (await openChunk(this.deps.keys, firstDocument));
    if (!first || first.header.attachmentId !== attachmentId || this.deps.isDeleted(first.header.conversationId)) return false;
    const ids = await Promise.all(Array.from({ length: first.header.count - 1 }, (_, index) => chunkId(this.deps.keys, attachmentId, index + 1)));
    const parts = [first.bytes];
    for (const [position, document] of (await this.deps.mirror.getMany(ids)).entries()) {
      const chunk = document && (await openChunk(this.deps.keys, document));
      if (!chunk || !sameFile(chunk.header, first.header) || chunk.header.index !== position + 1) return false;
      parts.push(chunk.bytes);
    }
    return this.store(first.header, parts);
  }

  /** `fetch`, and for a file still on its way, the same once it is stored or has stopped coming (FileArrivals). */
  async arrival(attachmentId: string, signal?: AbortSignal): Promise<boolean> {
    if (await this.fetch(attachmentId)) return true;
    await this.arrivals.wait(attachmentId, signal);
    return this.fetch(attachmentId);
  }

  /** Stores a file put together from its chunks, if it is the file they say (its size and SHA-256). */
  private async store(header: AttachmentChunkHeader, parts: Uint8Array[]): Promise<boolean> {
    const bytes = joinChunks(parts);
    if (bytes.length !== header.size || (await sha256Hex(bytes)) !== header.sha256) {
      this.deps.refused('misplaced');
      return false;
    }
    await this.deps.host.storeAttachment({ id: header.attachmentId, conversationId: header.conversationId, messageId: header.messageId, blob: new Blob([bytes], { type: header.mimeType }) });
    this.arrivals.here(header.attachmentId);
    // The file is here now, whatever becomes of this note: it only spares writing its chunks again after a take-over.
    await this.held.note(header.attachmentId).catch(() => undefined);
    return true;
  }
}

import type { AttachmentChunkHeader } from '../../../schema/sync/attachment-chunks';
import type { StoredAttachment } from '../../../schema/attachments/attachments';
import type { Message } from '../../../schema/records';
import { WireError } from '../../../schema/wire-error';
import type { EncryptedDocument, Mirror } from '../mirror/mirror';
import type { RefusalKind } from '../documents/refusal-log';
import type { SealedDocuments } from '../documents/sealed-documents';
import type { SyncKeys } from '../documents/sync-crypto';
import { CHUNK_BYTES, chunkId, openChunk, joinChunks, sameFile, sealChunk, sha256Hex, splitIntoChunks } from './attachment-chunks';
import { FileArrivals } from './file-arrivals';

/**
 * How many chunks are sealed and sent together (about 1.4 MB of ciphertext): few, so the server holds the first of a
 * file's chunks, and the other device's pull takes them, while the next are sealed and sent.
 */
const CHUNKS_PER_WRITE = 2;
/** The mirror's local value listing the files whose chunks it holds (written here, or put together from it). */
const HELD_KEY = 'attachments-held';

/** How long chunks are taken from the server after the last one came (then the live replication brings the rest). */
const TAKE_IDLE_MS = 30_000;
/**
 * How many files' chunks are taken from the server at once: each holds a request open (a `_changes` longpoll), and a
 * browser opens at most six connections to one server, which the live replication needs too. Other files come with it.
 */
const MOST_FILES_TAKEN = 2;

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
 * The bytes of files, synced (docs/architecture.md, "Sync"). The device that holds a file sends its chunks to the server
 * and the mirror as soon as the message naming it is stored; that message's own document goes without waiting for
 * them, and another device shows it with the file "not here yet" until the bytes are stored there. What arrives is put
 * together as the chunks come (the rest taken from the server once the first is here) and stored in this device's
 * `attachments` store (where a model step and an export read files, and which "Turn off sync" keeps); a file whose
 * chunks came while this device was closed is put together from the mirror the first time it is needed (`fetch`).
 */
export class AttachmentSync {
  private held: Promise<Set<string>> | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Files whose chunks are being written, by id. */
  private readonly uploading = new Map<string, Promise<void>>();
  /** Chunks of files still arriving, by file. */
  private readonly arriving = new Map<string, ArrivingFile>();
  /** Files put together here (stored, or being stored): a chunk of theirs arriving late is not a new file. */
  private readonly completed = new Set<string>();
  /** Chunk documents taken from the server: handed on by the mirror later, they are not opened again. */
  private readonly taken = new Set<string>();
  /** Chunk documents this device wrote: handed back by the mirror, they are not opened again. */
  private readonly written = new Set<string>();
  private stopped = false;
  /** Files whose chunks are being taken from the server now (`takeRest`). */
  private filesTaken = 0;
  /** Model steps waiting for files on their way here (`arrival`). */
  private readonly arrivals = new FileArrivals();

  constructor(private readonly deps: AttachmentSyncDeps) {}

  /**
   * Writes the chunks of a message's files that the mirror lacks and this device holds. Called as soon as the message is
   * stored and again by the push queue once the message is written (`uploadAfter`): a file already on its way is waited for.
   */
  async upload(message: Message): Promise<void> {
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

  private uploadFile(attachmentId: string, mimeType: string): Promise<void> {
    let running = this.uploading.get(attachmentId);
    if (!running) {
      running = this.writeChunks(attachmentId, mimeType).finally(() => this.uploading.delete(attachmentId));
      this.uploading.set(attachmentId, running);
    }
    return running;
  }

  /**
   * Seals a file's chunks a few at a time, each few written (`putNew`: to the server at once, then to the mirror) while
   * the next are sealed, so the other device can take the first chunks while the last are still being sealed here.
   */
  private async writeChunks(attachmentId: string, mimeType: string): Promise<void> {
    if ((await this.heldFiles()).has(attachmentId)) return;
    const stored = await this.deps.host.readAttachment(attachmentId);
    if (!stored) return; // not here: the device that holds it writes it
    const bytes = new Uint8Array(await stored.blob.arrayBuffer());
    const parts = splitIntoChunks(bytes);
    const file = { v: 1 as const, attachmentId, conversationId: stored.conversationId, messageId: stored.messageId, mimeType, size: bytes.length, count: parts.length, sha256: await sha256Hex(bytes) };
    const sealFrom = (start: number) =>
      Promise.all(
        parts.slice(start, start + CHUNKS_PER_WRITE).map(async (part, offset) => {
          const id = await chunkId(this.deps.keys, attachmentId, start + offset);
          this.written.add(id);
          return sealChunk(this.deps.keys, id, { ...file, index: start + offset }, part);
        }),
      );
    const write = async (documents: EncryptedDocument[]) => {
      const error = (await this.deps.mirror.putNew(documents)).find(Boolean);
      if (error) throw error;
      this.deps.sealed.sealedDocuments += documents.length;
      this.deps.sealed.sealedBytes += documents.reduce((sum, document) => sum + (document.ct?.length ?? 0), 0);
    };
    let sealing = sealFrom(0);
    let writing: Promise<void> = Promise.resolve();
    for (let start = 0; start < parts.length; start += CHUNKS_PER_WRITE) {
      const documents = await sealing;
      if (start + CHUNKS_PER_WRITE < parts.length) {
        sealing = sealFrom(start + CHUNKS_PER_WRITE);
        sealing.catch(() => undefined); // awaited next round; not unhandled should this write throw first
      }
      // Two writes at once: this one's send to the server goes while the one before is sent or written to the mirror.
      const written = write(documents);
      written.catch(() => undefined); // awaited next round (or below)
      await writing;
      writing = written;
    }
    await writing;
    await this.noteHeld(attachmentId);
  }

  /** A chunk document from the mirror: kept until its file is whole, then the file is checked and stored. */
  async receive(document: EncryptedDocument): Promise<void> {
    if (this.written.delete(document._id)) return; // this device's own write, back from the mirror
    if (this.taken.delete(document._id)) return; // taken from the server already (`takeRest`)
    await this.accept(document);
  }

  /** Stops taking chunks from the server (the engine stopped). */
  stop(): void {
    this.stopped = true;
    for (const entry of this.arriving.values()) entry.taking?.cancel();
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
   * 5 MB image a chunk or two per round, about a second each on a loaded machine). Given up after `TAKE_IDLE_MS`
   * without a chunk (a sender closed midway): the replication still brings them.
   */
  private takeRest(entry: ArrivingFile, arrived: number): void {
    const { attachmentId, count } = entry.header;
    void Promise.all(Array.from({ length: count }, (_, index) => chunkId(this.deps.keys, attachmentId, index))).then((ids) => {
      if (this.stopped || this.arriving.get(attachmentId) !== entry || this.filesTaken >= MOST_FILES_TAKEN) return;
      this.filesTaken += 1;
      let idle: ReturnType<typeof setTimeout> | undefined;
      const waitMore = () => {
        clearTimeout(idle);
        idle = setTimeout(() => entry.taking?.cancel(), TAKE_IDLE_MS);
      };
      const taking = this.deps.mirror.takeFromServer(
        ids.filter((_, index) => index !== arrived),
        (documents) => {
          waitMore();
          for (const document of documents) {
            this.taken.add(document._id);
            void this.accept(document).catch(() => undefined);
          }
        },
      );
      let over = false;
      entry.taking = {
        cancel: () => {
          clearTimeout(idle);
          taking.cancel();
          if (!over) this.filesTaken -= 1;
          over = true;
        },
      };
      waitMore();
    });
  }

  /**
   * Puts a file together from the chunks the mirror holds and stores it, when it is not stored here yet. True when the
   * file is stored here now; false when some chunk has not arrived (or does not fit the others).
   */
  async fetch(attachmentId: string): Promise<boolean> {
    if (await this.deps.host.readAttachment(attachmentId)) return true;
    const firstDocument = await this.deps.mirror.get(await chunkId(this.deps.keys, attachmentId, 0));
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
    await this.noteHeld(header.attachmentId).catch(() => undefined);
    return true;
  }

  private heldFiles(): Promise<Set<string>> {
    this.held ??= this.deps.mirror.getLocal(HELD_KEY).then(
      (value) => new Set(Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []),
      () => new Set<string>(),
    );
    return this.held;
  }

  /** Notes that the mirror holds a file's chunks (one write at a time: concurrent uploads share the value). */
  private async noteHeld(attachmentId: string): Promise<void> {
    const held = await this.heldFiles();
    if (held.has(attachmentId)) return;
    held.add(attachmentId);
    this.saving = this.saving.catch(() => undefined).then(() => this.deps.mirror.setLocal(HELD_KEY, [...held]));
    await this.saving;
  }
}

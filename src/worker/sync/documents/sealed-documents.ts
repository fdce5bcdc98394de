import { SyncPayload } from '../../../schema/sync/sync';
import type { EncryptedDocument, Mirror } from '../mirror/mirror';
import { open, seal, utf8Of, type SyncKeys } from './sync-crypto';
import { OwnWrites } from '../mirror/own-writes';
import { upgradeBlocks } from '../../../schema/messages/upgrade-blocks';
import { digestOf, HeldDocuments } from './held-documents';

/**
 * A message document as a device on an older build writes it, its requests in today's shape (see upgradeBlocks).
 * The other way round, that build refuses a message in today's shape as unreadable and keeps its own copy.
 */
function upgradePayload(payload: unknown): unknown {
  const record = payload as { kind?: unknown; message?: unknown } | null;
  return record?.kind === 'message' ? { ...record, message: upgradeBlocks(record.message) } : payload;
}

/** The format a segment is written in: its sealed body under `m`, which builds before segments pass over. */
const SEGMENT_FORMAT = 3;

/** A document's sealed JSON body: under `m` for a segment (format 3), else `iv` and `ct` (format 1). */
function sealedBodyOf(document: EncryptedDocument): { iv: string; ct: string } | undefined {
  if (document.e === SEGMENT_FORMAT) return document.m;
  return document.ct && document.iv ? { iv: document.iv, ct: document.ct } : undefined;
}

/** A payload sealed as a document of its format (see SEGMENT_FORMAT). */
function documentOf(id: string, rev: string | undefined, payload: SyncPayload, body: { iv: string; ct: string }): EncryptedDocument {
  const head = { _id: id, ...(rev ? { _rev: rev } : {}) };
  return payload.kind === 'segment' ? { ...head, e: SEGMENT_FORMAT, m: body } : { ...head, e: 1, ...body };
}

/** The engine's payloads as the mirror holds them: sealed with the user's key on the way in, opened and checked on the way out. */
export class SealedDocuments {
  /** Documents sealed and written to the mirror, and their ciphertext's size (base64 characters). */
  sealedDocuments = 0;
  sealedBytes = 0;
  /** What this device wrote and the mirror's change feed has not handed back yet: not opened when it comes. */
  readonly own = new OwnWrites();
  /** The revisions this device wrote last, as the change feed handed them back: written over without a read. */
  private readonly held = new HeldDocuments();

  constructor(
    private readonly mirror: Mirror,
    private readonly keys: SyncKeys,
    /** A document that could not be opened (another key, altered bytes) or is not a payload: never applied. */
    private readonly onUnreadable: () => void = () => undefined,
  ) {}

  /** Seals and writes a payload, unless the mirror already holds exactly it. */
  async write(id: string, payload: SyncPayload): Promise<void> {
    const [error] = await this.writeMany([{ id, payload }]);
    if (error) throw error;
  }

  /**
   * Seals payloads (concurrently) and writes them with one bulk write, each unless the mirror already holds exactly it.
   * What each came to, in order: undefined when written (or already there), else its error. Of two writes to one
   * document, the later is written (as it would be, written one after the other).
   */
  async writeMany(writes: ReadonlyArray<{ id: string; payload: SyncPayload }>): Promise<Array<Error | undefined>> {
    const last = new Map<string, number>();
    writes.forEach((write, index) => last.set(write.id, index));
    const unique = [...last.values()];
    const texts = unique.map((index) => JSON.stringify(writes[index]!.payload));
    // Encoded once: digested here, sealed below.
    const encoded = texts.map(utf8Of);
    const digests = await Promise.all(encoded.map(digestOf));
    // Only what the feed has not handed back as this device's last write is read from the mirror (see HeldDocuments).
    const held = unique.map((index) => this.held.get(writes[index]!.id));
    const unknown = unique.filter((_, position) => !held[position]);
    const read = unknown.length > 0 ? await this.mirror.getMany(unknown.map((index) => writes[index]!.id)) : [];
    const existing = new Map(unknown.map((index, position) => [index, read[position]]));
    const sealed = await Promise.all(
      unique.map(async (index, position) => {
        const known = held[position];
        const current = existing.get(index);
        if (known ? known.digest === digests[position] : await this.holds(current, texts[position]!)) return undefined;
        const body = await seal(this.keys, encoded[position]!);
        return { index, digest: digests[position]!, document: documentOf(writes[index]!.id, known?.rev ?? current?._rev, writes[index]!.payload, body) };
      }),
    );
    const toWrite = sealed.filter((entry) => entry !== undefined);
    const results: Array<Error | undefined> = writes.map(() => undefined);
    if (toWrite.length === 0) return results;
    for (const { document } of toWrite) this.held.forget(document._id);
    const errors = await this.own
      .write(
        toWrite.map((entry) => entry.document),
        (documents) => this.mirror.putMany(documents),
        toWrite.map((entry) => entry.digest),
      )
      .catch((error: unknown) => {
        for (const { document } of toWrite) this.held.forget(document._id);
        throw error;
      });
    toWrite.forEach(({ index, document }, position) => {
      const error = errors[position];
      if (error) {
        this.held.forget(document._id);
        results[index] = error;
        return;
      }
      this.sealedDocuments += 1;
      const body = sealedBodyOf(document);
      this.sealedBytes += (body?.ct.length ?? 0) + (body?.iv.length ?? 0);
    });
    return results;
  }

  /** Whether `current` (read from the mirror) holds exactly `text`. */
  private async holds(current: EncryptedDocument | undefined, text: string): Promise<boolean> {
    const held = current && sealedBodyOf(current);
    return Boolean(held && (await open(this.keys, held).catch(() => undefined)) === text);
  }

  /**
   * Whether the change feed handed back a revision this device wrote (see OwnWrites): it holds what it says already.
   * Every change the feed hands on is told here (`heard`, for one not opened), so a remembered revision is never one
   * the feed has replaced (see HeldDocuments).
   */
  wroteIt(document: EncryptedDocument): boolean {
    const { own, note } = this.own.handBack(document);
    this.held.heard(document, own ? note : undefined);
    return own;
  }

  /** A change the feed handed on that is not opened (a deletion, a file's chunk, the key document): see `wroteIt`. */
  heard(document: EncryptedDocument): void {
    this.held.heard(document);
  }

  /** The payload, or undefined (counted as unreadable unless `quiet`: a document read ahead of the mirror, which counts it). */
  async read(document: EncryptedDocument, { quiet = false } = {}): Promise<SyncPayload | undefined> {
    const body = sealedBodyOf(document);
    if (!body) return undefined;
    try {
      const parsed = SyncPayload.safeParse(upgradePayload(JSON.parse(await open(this.keys, body))));
      // A segment's body is found only under `m`: one sealed as format 1 is not where its writer put it.
      if (parsed.success && (parsed.data.kind === 'segment') === (document.e === SEGMENT_FORMAT)) return parsed.data;
    } catch {
      // another key, or altered: below
    }
    if (!quiet) this.onUnreadable();
    return undefined;
  }
}

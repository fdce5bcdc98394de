import type { EncryptedDocument } from './mirror';

/**
 * The revisions this device wrote to the mirror and its change feed has not handed back yet, each known by its
 * document id and the sealed body's IV (random for every seal, so no other revision carries it). Handed back, such a
 * revision is recognised without opening it: this device already holds what it says.
 */
export class OwnWrites {
  /** Each id's last revision written: its IV, and what the writer noted with it (see `write`). */
  private readonly pending = new Map<string, { iv: string; note?: string }>();

  /**
   * Writes `documents` with `write` (a bulk write: what each came to, undefined when written), noting them first: the
   * feed may hand one on before the write resolves. One that failed is forgotten, since nothing of it comes back.
   * `notes` (by position) are handed back with the revision (`handBack`).
   */
  async write(documents: EncryptedDocument[], write: (documents: EncryptedDocument[]) => Promise<Array<Error | undefined>>, notes: ReadonlyArray<string | undefined> = []): Promise<Array<Error | undefined>> {
    documents.forEach((document, index) => {
      const iv = ivOf(document);
      const note = notes[index];
      if (iv) this.pending.set(document._id, note === undefined ? { iv } : { iv, note });
    });
    const errors = await write(documents).catch((error: unknown) => {
      for (const document of documents) this.forget(document);
      throw error;
    });
    documents.forEach((document, index) => errors[index] && this.forget(document));
    return errors;
  }

  private forget(document: EncryptedDocument): void {
    if (this.pending.get(document._id)?.iv === ivOf(document)) this.pending.delete(document._id);
  }

  /**
   * Whether a document the feed handed on is the revision this device wrote last under its id. Either way the id is
   * no longer watched: the feed hands a document on once per change, so another revision there replaced this device's.
   */
  take(document: EncryptedDocument): boolean {
    return this.handBack(document).own;
  }

  /** `take`, with the note the revision was written with when it is this device's. */
  handBack(document: EncryptedDocument): { own: boolean; note?: string } {
    const pending = this.pending.get(document._id);
    if (pending === undefined) return { own: false };
    this.pending.delete(document._id);
    const own = !document._deleted && pending.iv === ivOf(document);
    return own && pending.note !== undefined ? { own, note: pending.note } : { own };
  }

  /** Whether `document` is the revision this device wrote last under its id, not handed back yet (nothing forgotten). */
  holds(document: EncryptedDocument): boolean {
    const iv = this.pending.get(document._id)?.iv;
    return iv !== undefined && iv === ivOf(document);
  }

  /** How many written revisions the feed has not handed back yet. */
  get size(): number {
    return this.pending.size;
  }
}

function ivOf(document: EncryptedDocument): string | undefined {
  return document.iv ?? document.s?.iv ?? document.m?.iv;
}

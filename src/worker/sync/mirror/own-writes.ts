import type { EncryptedDocument } from './mirror';

/**
 * The revisions this device wrote to the mirror and its change feed has not handed back yet, each known by its
 * document id and the sealed body's IV (random for every seal, so no other revision carries it). Handed back, such a
 * revision is recognised without opening it: this device already holds what it says.
 */
export class OwnWrites {
  private readonly pending = new Map<string, string>();

  /**
   * Writes `documents` with `write` (a bulk write: what each came to, undefined when written), noting them first: the
   * feed may hand one on before the write resolves. One that failed is forgotten, since nothing of it comes back.
   */
  async write(documents: EncryptedDocument[], write: (documents: EncryptedDocument[]) => Promise<Array<Error | undefined>>): Promise<Array<Error | undefined>> {
    for (const document of documents) {
      const iv = ivOf(document);
      if (iv) this.pending.set(document._id, iv);
    }
    const errors = await write(documents).catch((error: unknown) => {
      for (const document of documents) this.forget(document);
      throw error;
    });
    documents.forEach((document, index) => errors[index] && this.forget(document));
    return errors;
  }

  private forget(document: EncryptedDocument): void {
    if (this.pending.get(document._id) === ivOf(document)) this.pending.delete(document._id);
  }

  /**
   * Whether a document the feed handed on is the revision this device wrote last under its id. Either way the id is
   * no longer watched: the feed hands a document on once per change, so another revision there replaced this device's.
   */
  take(document: EncryptedDocument): boolean {
    const iv = this.pending.get(document._id);
    if (iv === undefined) return false;
    this.pending.delete(document._id);
    return !document._deleted && iv === ivOf(document);
  }

  /** Whether `document` is the revision this device wrote last under its id, not handed back yet (nothing forgotten). */
  holds(document: EncryptedDocument): boolean {
    const iv = this.pending.get(document._id);
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

import type { EncryptedDocument } from '../mirror/mirror';

/** How many documents' revisions are remembered (a round writes a conversation's record and a segment or two). */
const REMEMBERED = 1000;

/** What the mirror holds under an id, as far as this device knows: the revision and its payload's digest. */
export interface Held {
  rev: string;
  digest: string;
}

/**
 * A payload's SHA-256, hex: what a held revision is compared by, without keeping (or opening) the plaintext. Given as
 * its UTF-8 bytes, which the write seals too (encoded once).
 */
export async function digestOf(utf8: Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The revisions this device wrote last of the documents it seals (sealed-documents.ts), once the mirror's change feed
 * handed them back: then the mirror held that revision, and until the feed hands on another change of the id, it is
 * the one a write goes over, so the write needs no read of the mirror first (docs/architecture.md, "Sync"). Forgotten
 * when the feed hands on any other change of the id, and when a write of it starts (kept again once that one is handed
 * back) or fails.
 *
 * Another device's revision can land in the mirror before the feed hands it on. A write over the remembered revision
 * then meets a conflict and goes over the newest (`putMany`), and a payload found held already is not written: the
 * same as a read just before the write, which the other revision could follow too. Either way the feed hands the other
 * revision on next, and what this device runs is written again over it (change-receiver.ts).
 */
export class HeldDocuments {
  private readonly held = new Map<string, Held>();

  get(id: string): Held | undefined {
    return this.held.get(id);
  }

  /** A revision of this device's, handed back by the feed (`digest`: its payload's), or any other change (none). */
  heard(document: EncryptedDocument, digest?: string): void {
    this.held.delete(document._id);
    if (digest === undefined || !document._rev || document._deleted) return;
    this.held.set(document._id, { rev: document._rev, digest });
    if (this.held.size > REMEMBERED) this.held.delete(this.held.keys().next().value!);
  }

  /** A write of `id` started, or failed: what the mirror holds is known again once the feed hands it on. */
  forget(id: string): void {
    this.held.delete(id);
  }
}

/**
 * The replicated document store the sync engine writes to and reads from: in the browser a PouchDB database in this
 * origin's IndexedDB, replicated live with the user's CouchDB (pouch-mirror.ts); in host tests an in-memory one joined
 * to others by a simulated replicator that delays, duplicates and reorders. Documents hold only ciphertext.
 */
export interface EncryptedDocument {
  _id: string;
  _rev?: string;
  _deleted?: boolean;
  /**
   * Format of the sealed body: 1, a sealed JSON payload; 2, a file's chunk (attachment-sync.ts); 3, a segment of a
   * conversation's messages, a sealed JSON payload under `m` (sealed-documents.ts).
   */
  e?: 1 | 2 | 3;
  iv?: string;
  ct?: string;
  /** A synced setting's sealed body (settings-sync.ts): a field builds before settings synced pass over. */
  s?: { iv: string; ct: string };
  /** A segment's sealed body (format 3): a field builds before segments pass over, as they pass over settings. */
  m?: { iv: string; ct: string };
}

export interface MirrorChange {
  document: EncryptedDocument;
  /** The mirror's sequence after this change: what `follow` resumes from. */
  seq: string | number;
}

export interface Mirror {
  /** The document as the mirror holds it now (its winning revision); undefined when absent or deleted. */
  get(id: string): Promise<EncryptedDocument | undefined>;
  /**
   * Writes the document on this device (replicated later): `_rev` should be the revision just read; a conflict with a
   * revision that arrived meanwhile is retried over the newest one, since a device only writes what it is the author of.
   */
  put(document: EncryptedDocument): Promise<void>;
  /** Several documents in one read, in order, each as `get` gives it. */
  getMany(ids: string[]): Promise<Array<EncryptedDocument | undefined>>;
  /**
   * Several writes in one (PouchDB's `bulkDocs`), each as `put` does it (a conflict retried over the newest revision).
   * One that fails does not fail the others: what each came to, in order — undefined when written, else its error.
   * While replicating, a write's documents new to the mirror (no `_rev`) are written with a first revision of their
   * own and sent to the server at the same time; one the server took counts as written (write-and-send.ts).
   */
  putMany(documents: EncryptedDocument[]): Promise<Array<Error | undefined>>;
  /**
   * Writes documents new to the mirror (a file's chunks, each written once) with a first revision of its own: to the
   * server at once while replicating, whatever their size, then to the mirror with the same revisions, so the
   * replication finds them on the server and does not send them again (what the server did not take, it sends). What
   * each came to, in order, as `putMany` says it.
   */
  putNew(documents: EncryptedDocument[]): Promise<Array<Error | undefined>>;
  /**
   * Documents of `ids` taken from the server itself as they are there: those it holds now, then each as it arrives, until
   * cancelled (nothing while not replicating). Each is written to the mirror too, with the server's revision, so the live
   * replication, which would have pulled it later in its own batches, finds it held. Documents it does not hold (or not
   * yet) are never an error: the replication brings them.
   */
  takeFromServer(ids: string[], onDocuments: (documents: EncryptedDocument[]) => void): { cancel(): void };
  /** Every change after `since` (all documents from the start), then each new one, local or replicated, in order. */
  follow(since: string | number | undefined, onChanges: (changes: MirrorChange[]) => Promise<void>): { cancel(): void };
  /** Reads a document from the server itself (not the mirror): what a compare-and-set there must start from. */
  remoteGet(id: string): Promise<EncryptedDocument | undefined>;
  /** A `PUT` on the server itself with the `_rev` read there: `conflict` when someone wrote it since (CouchDB's MVCC). */
  remotePut(document: EncryptedDocument): Promise<'ok' | 'conflict'>;
  /**
   * Hands on each document the server changes from now on, with its body, until cancelled or a request fails (`onEnd`),
   * while replicating with the server this device joined; absent where the mirror has no server of its own (host
   * tests' simulated one).
   */
  hearServer?(onDocument: (document: EncryptedDocument) => void, onEnd?: () => void): { cancel(): void };
  /** Stores a document's first revision as `hearServer` gave it (its revision kept, as replicated): true when stored. */
  adopt?(document: EncryptedDocument): Promise<boolean>;
  /**
   * Readies the server for a send at once that may follow soon (a proposal: a person here may answer a request another
   * device's run waits on), so that send does not wait on a browser's CORS preflight (warm-send.ts). Absent where the
   * mirror has no server of its own.
   */
  warmSend?(): void;
  /** A small value kept on this device only (never replicated): where `follow` got to. */
  getLocal(key: string): Promise<unknown>;
  setLocal(key: string, value: unknown): Promise<void>;
}

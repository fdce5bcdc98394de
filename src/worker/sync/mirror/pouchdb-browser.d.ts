// The few parts of PouchDB (pouchdb-browser 9) that the sync mirror's files use, typed here rather than through
// @types/pouchdb-*, whose global declarations leak into every other tsconfig of the project.
declare module 'pouchdb-browser' {
  interface PouchError {
    status?: number;
    name?: string;
    message?: string;
  }
  interface ChangesResult<Document> {
    results: Array<{ id: string; seq: string | number; doc?: Document; deleted?: boolean }>;
    last_seq: string | number;
  }
  interface LiveChanges<Document> {
    on(event: 'change', listener: (change: { id: string; seq: string | number; doc?: Document }) => void): LiveChanges<Document>;
    on(event: 'error', listener: (error: PouchError) => void): LiveChanges<Document>;
    cancel(): void;
  }
  interface SyncInfo {
    direction: 'push' | 'pull';
    /** `docs_written` counts from the replication's start (a live one's whole life), not per batch. */
    change: { docs_written: number; pending?: number; docs?: Array<{ _id: string; _rev?: string }> };
  }
  interface Replication {
    on(event: 'change', listener: (info: SyncInfo) => void): Replication;
    on(event: 'active', listener: () => void): Replication;
    on(event: 'paused', listener: (error?: PouchError) => void): Replication;
    on(event: 'denied' | 'error', listener: (error: PouchError) => void): Replication;
    cancel(): void;
  }
  /** `sync()`'s result: its two one-way replications, whose own 'paused' carries the error that Sync's drops. */
  interface SyncReplication extends Replication {
    push: Replication;
    pull: Replication;
  }
  interface Database<Document = Record<string, unknown>> {
    get(id: string): Promise<Document & { _id: string; _rev: string; _deleted?: boolean }>;
    put(document: Document): Promise<{ ok: boolean; id: string; rev: string }>;
    /** One entry per document, in order: written, or its error (409 for a conflict). */
    bulkDocs(documents: Document[], options?: { new_edits: false }): Promise<Array<{ ok: true; id: string; rev: string } | (PouchError & { error: true; id?: string })>>;
    allDocs(options: { keys: string[]; include_docs?: true }): Promise<{ rows: Array<{ key: string; error?: string; value?: { rev: string; deleted?: boolean }; doc?: Document | null }> }>;
    allDocs(options: { include_docs: true; limit: number; startkey?: string; skip?: number }): Promise<{ rows: Array<{ id: string; doc?: Document & { _deleted?: boolean } }> }>;
    /** A one-way replication; `checkpoint: false` starts from the beginning and keeps no checkpoint. */
    replicate: { to(remote: Database<Document>, options: { checkpoint?: false; batch_size?: number }): Promise<unknown> };
    changes(options: { since: string | number; limit?: number; include_docs: true; live?: false }): Promise<ChangesResult<Document>>;
    changes(options: { since: string | number; include_docs: true; live: true; doc_ids?: string[]; heartbeat?: number }): LiveChanges<Document>;
    /** `push` and `pull` hold options for one direction; `checkpoint: 'target'` (or 'source') keeps it on that side only. */
    sync(remote: Database<Document>, options: { live: boolean; retry: boolean; batch_size?: number; back_off_function?: (delay: number) => number; push?: { checkpoint: 'source' | 'target' }; pull?: { checkpoint: 'source' | 'target' } }): SyncReplication;
    info(): Promise<{ doc_count: number; update_seq: string | number }>;
    /** For each id, the revisions asked about that the database lacks (only the ids that lack some). */
    revsDiff(request: Record<string, string[]>, ...rest: unknown[]): Promise<Record<string, { missing: string[] }>>;
    /** A request to the server's database (an http one only), with its credentials; `path` relative to the database. */
    fetch(path: string, options: RequestInit & { headers: Headers }): Promise<Response>;
    close(): Promise<void>;
    destroy(): Promise<void>;
  }
  interface PouchStatic {
    new <Document = Record<string, unknown>>(name: string, options?: Record<string, unknown>): Database<Document>;
    fetch(url: string | Request, options?: RequestInit): Promise<Response>;
  }
  const PouchDB: PouchStatic;
  export default PouchDB;
  export type { Database, PouchError };
}

import { createRequire } from 'node:module';
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from '../../src/worker/sync/mirror/mirror';

// PouchDB in Node, in memory and over HTTP, for the sync fixture's writer (run in an older build's worktree, so this
// file is copied there beside it) and the test that reads the fixture.

const require = createRequire(import.meta.url);

/** The PouchDB calls made on a whole database (wider than the app's typing of pouchdb-browser). */
export interface RawDatabase {
  info(): Promise<{ update_seq: number | string }>;
  changes(options: { since: number; style: 'all_docs' }): Promise<{ results: Array<{ id: string }> }>;
  get(id: string, options?: Record<string, unknown>): Promise<unknown>;
  put(document: object): Promise<unknown>;
  allDocs(options?: { include_docs?: boolean; keys?: string[] }): Promise<{ rows: Array<{ id: string; value?: { rev: string }; doc?: EncryptedDocument }> }>;
  bulkDocs(documents: object[], options: { new_edits: false }): Promise<Array<{ error?: unknown }>>;
}
type NodePouch = (new (name: string, options: Record<string, unknown>) => RawDatabase) & { plugin(plugin: unknown): NodePouch };

/** The app's view of the same database, for mirrorOver. */
export const asDatabase = (database: RawDatabase) => database as unknown as Database<EncryptedDocument>;

export const PouchDB = (require('pouchdb-core') as NodePouch).plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-adapter-http')).plugin(require('pouchdb-replication'));

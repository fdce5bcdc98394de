import PouchDB, { type Database } from 'pouchdb-browser';
import { sendableBody } from '../../../core/request-body';
import type { EncryptedDocument } from './mirror';
import { MIRROR_DATABASE_OPTIONS, mirrorOver, type PouchMirror } from './pouch-database-mirror';

export type { PouchMirror } from './pouch-database-mirror';

/** What PouchDB puts before a local database's name to name its IndexedDB database. */
const IDB_PREFIX = '_pouch_';
/** Every mirror is named so (`parley-sync-<id>`): what "Turn off sync" may delete. */
export const MIRROR_NAME_PREFIX = 'parley-sync-';

/**
 * Deletes this origin's mirror databases but `keep` (turning sync off): the one sync used, and any an earlier version
 * left behind (it closed the mirror before destroying it, so the destroy failed and the database stayed). Never throws.
 */
export async function deleteMirrors(keep?: string): Promise<void> {
  const listed = typeof indexedDB !== 'undefined' && typeof indexedDB.databases === 'function' ? await indexedDB.databases().catch(() => []) : [];
  const names = listed.flatMap(({ name }) => (name?.startsWith(IDB_PREFIX + MIRROR_NAME_PREFIX) ? [name.slice(IDB_PREFIX.length)] : []));
  for (const name of names) {
    if (name !== keep) await new PouchDB(name).destroy().catch(() => undefined);
  }
}

export interface RemoteAccess {
  url: string;
  username: string;
  password: string;
}

/** The server database, with Basic credentials added to each request (PouchDB's `fetch` option). */
export function remoteDatabase(access: RemoteAccess): Database<EncryptedDocument> {
  const authorization = access.username || access.password ? `Basic ${btoa(unescape(encodeURIComponent(`${access.username}:${access.password}`)))}` : undefined;
  return new PouchDB<EncryptedDocument>(access.url, {
    skip_setup: true,
    fetch: (url: string | Request, options?: RequestInit) => {
      const headers = new Headers(options?.headers);
      if (authorization) headers.set('Authorization', authorization);
      // Credentials only ever go to the server the user named, as a header: no cookie, no other origin. A file's chunks
      // go as a Blob (request-body.ts).
      return PouchDB.fetch(url, { ...options, headers, body: sendableBody(options?.body, headers), credentials: 'omit' });
    },
  });
}

/** A PouchDB database in this origin's IndexedDB that mirrors the server's, live, in both directions (see mirrorOver). */
export function openPouchMirror(localName: string, access: RemoteAccess, options: { countAfterMs?: number } = {}): PouchMirror {
  return mirrorOver(new PouchDB<EncryptedDocument>(localName, MIRROR_DATABASE_OPTIONS), remoteDatabase(access), options);
}

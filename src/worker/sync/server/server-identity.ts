import type { RemoteAccess } from '../mirror/pouch-mirror';
import { isKeyDocument, KEY_DOC_ID, sameKeyDocument, type KeyDocument } from '../documents/sync-crypto';

/**
 * What the sync server holds, measured against the key document this device joined with (README, "Sync between your
 * devices": a server that lost its data):
 * - `same`: that key document: replicate.
 * - `unreachable`: no answer (offline, or the server down): nothing is known, nothing is changed.
 * - `unauthorized`: the server refused the username or password.
 * - `database_missing`: the server answers but the database is gone (deleted, or a server restarted without its data).
 * - `emptied`: the database is there and holds nothing, not even a key document (made again, empty).
 * - `key_missing`: documents without their key document (someone deleted it): told, never mended silently.
 * - `replaced`: another key document (another salt): another device set the server up again; the passphrase joins it.
 * - `not_parley`: the key document's place holds something Parley cannot read.
 */
type ServerFinding =
  | { kind: 'same' | 'unreachable' | 'unauthorized' | 'database_missing' | 'emptied' | 'key_missing' | 'not_parley' }
  | { kind: 'replaced'; document: KeyDocument };

/** What was read from the server: the database's answer (its HTTP status and document count) and its key document. */
interface ServerReading {
  /** The HTTP status of `GET <database>`; undefined when no answer came. */
  databaseStatus: number | undefined;
  /** `doc_count` of the database's info (deleted documents are not counted). */
  documentCount?: number;
  /** The document at `parley-key`, undefined when there is none. */
  keyDocument?: unknown;
}

/** What a reading means for a device that joined with `mine`. Pure: the detections are tested from readings. */
export function judgeServer(reading: ServerReading, mine: KeyDocument): ServerFinding {
  const status = reading.databaseStatus;
  if (status === 401 || status === 403) return { kind: 'unauthorized' };
  if (status === undefined || status >= 500) return { kind: 'unreachable' };
  if (status === 404) return { kind: 'database_missing' };
  const found = reading.keyDocument;
  if (found === undefined) return (reading.documentCount ?? 0) === 0 ? { kind: 'emptied' } : { kind: 'key_missing' };
  if (!isKeyDocument(found)) return { kind: 'not_parley' };
  if (sameKeyDocument(found, mine)) return { kind: 'same' };
  const { _rev: _revision, ...document } = found;
  return { kind: 'replaced', document: document as KeyDocument };
}

/** Reads the database's info and its key document, and judges them (two requests). Never throws. */
export async function inspectServer(access: RemoteAccess, mine: KeyDocument): Promise<ServerFinding> {
  return judgeServer(await readServer(access), mine);
}

async function readServer(access: RemoteAccess): Promise<ServerReading> {
  const request = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: { ...authorizationHeaders(access), ...init.headers }, credentials: 'omit', cache: 'no-store' });
  try {
    const database = await request(access.url);
    if (!database.ok) return { databaseStatus: database.status };
    const info = (await database.json().catch(() => ({}))) as { doc_count?: unknown };
    const key = await request(`${access.url}/${KEY_DOC_ID}`);
    if (key.status === 404) return { databaseStatus: 200, documentCount: typeof info.doc_count === 'number' ? info.doc_count : 0 };
    if (!key.ok) return { databaseStatus: key.status };
    return { databaseStatus: 200, keyDocument: await key.json().catch(() => null) };
  } catch {
    return { databaseStatus: undefined };
  }
}

/**
 * Sets a server that lost its data up again as this device knew it: the database made again where it is gone (CouchDB
 * lets an admin; another user cannot) and this device's key document written into it, the same salt, so every device
 * that joined with it goes on with its keys. 'ok', or 'cannot_create' when the database could not be made; 'taken' when
 * another key document was written first (the next inspection says which).
 */
export async function setServerUpAgain(access: RemoteAccess, mine: KeyDocument): Promise<'ok' | 'cannot_create' | 'taken' | 'unreachable'> {
  const request = (url: string, init: RequestInit) => fetch(url, { ...init, headers: { 'content-type': 'application/json', ...authorizationHeaders(access) }, credentials: 'omit' });
  try {
    const database = await request(access.url, { method: 'GET' });
    if (database.status === 404) {
      const created = await request(access.url, { method: 'PUT' });
      // 412: another device made it meanwhile.
      if (!created.ok && created.status !== 412) return 'cannot_create';
    }
    const { _rev: _revision, ...document } = mine;
    const written = await request(`${access.url}/${KEY_DOC_ID}`, { method: 'PUT', body: JSON.stringify(document) });
    if (written.ok) return 'ok';
    return written.status === 409 ? 'taken' : 'cannot_create';
  } catch {
    return 'unreachable';
  }
}

export function authorizationHeaders(access: RemoteAccess): Record<string, string> {
  return access.username || access.password ? { Authorization: `Basic ${btoa(unescape(encodeURIComponent(`${access.username}:${access.password}`)))}` } : {};
}

// The key document on the server, for SyncService: opened with the passphrase or made when sync is turned on, put back
// where it is gone, and another one opened to join it; each refusal in words.
import { WireError } from '../../../schema/wire-error';
import { remoteDatabase, type RemoteAccess } from '../mirror/pouch-mirror';
import { isKeyDocument, KEY_DOC_ID, newKeyDocument, openKeyDocument, type KeyDocument, type SyncKeys } from '../documents/sync-crypto';
import { authorizationHeaders, inspectServer } from './server-identity';

/**
 * Turning sync on: the key document's keys, read from the server (or made, for an empty database). Refusals in words:
 * server unreachable, password refused, not a database, wrong passphrase, data without its key document.
 */
export async function openServer(access: RemoteAccess, passphrase: string, newKey: boolean): Promise<{ keys: SyncKeys; document: KeyDocument }> {
  const remote = remoteDatabase(access);
  let response: Response;
  try {
    response = await fetch(access.url, { headers: authorizationHeaders(access), credentials: 'omit' });
  } catch {
    throw refusal('sync_unreachable', `The sync server at ${new URL(access.url).origin} cannot be reached (offline, a wrong address, or it does not allow this app's origin: CORS).`);
  }
  if (response.status === 401 || response.status === 403) throw refusal('sync_unauthorized', 'The sync server refused the username or password.');
  if (response.status === 404) {
    // An empty server: make the database (CouchDB lets an admin; otherwise the user must create it first).
    const created = await fetch(access.url, { method: 'PUT', headers: authorizationHeaders(access), credentials: 'omit' }).catch(() => undefined);
    if (!created?.ok) throw refusal('sync_not_a_database', 'There is no database at this URL, and it could not be created. Create it on the server first.');
  }
  let documentCount = 0;
  if (response.status !== 404) {
    const info = response.ok ? ((await response.json().catch(() => undefined)) as { db_name?: unknown; doc_count?: unknown } | undefined) : undefined;
    if (!info?.db_name) throw refusal('sync_not_a_database', 'This URL is not a CouchDB database (give the database URL, e.g. https://couch.example.com/parley).');
    documentCount = typeof info.doc_count === 'number' ? info.doc_count : 0;
  }
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const existing = await remote.get(KEY_DOC_ID).catch((error: { status?: number }) => (error.status === 404 ? undefined : Promise.reject(error)));
    if (existing) {
      if (!isKeyDocument(existing)) throw refusal('sync_not_a_database', 'This database holds something other than Parley’s encrypted data.');
      const keys = await openKeyDocument(existing as KeyDocument, passphrase);
      if (!keys) throw refusal('sync_wrong_passphrase', 'Wrong passphrase: it does not open the data on this server.');
      return { keys, document: existing as KeyDocument };
    }
    // Data without its key document was deleted or changed by someone: a new key is made only when the person says so.
    if (documentCount > 0 && !newKey) throw refusal('sync_key_missing', 'This database holds data, but its key document is gone. Nothing was changed; make a new key only if you expected this.');
    const made = await newKeyDocument(passphrase);
    try {
      await remote.put(made.document);
      return made;
    } catch (error) {
      if ((error as { status?: number }).status !== 409) throw refusal('sync_unauthorized', 'The sync server refused to store Parley’s key document (is the user allowed to write to this database?).');
      // Another device made it first: read theirs.
    }
  }
  throw refusal('sync_not_a_database', 'The key document of this database keeps changing.');
}

/** "Put this device's key back": `mine` written where it is gone (a 409, someone wrote one meanwhile, is left to the next look). */
export async function putKeyBack(access: RemoteAccess, mine: KeyDocument): Promise<void> {
  try {
    await remoteDatabase(access).put({ ...mine } as never);
  } catch (error) {
    if ((error as { status?: number }).status !== 409) throw refusal('sync_unreachable', 'The key document could not be written to the sync server.');
  }
}

/**
 * The other key document the server holds now (set up again by another device) and its keys, opened with the passphrase;
 * undefined when the server holds `mine` or lacks a key document (nothing to join). Refused: unreachable, wrong passphrase.
 */
export async function openReplacedKey(access: RemoteAccess, mine: KeyDocument, passphrase: string): Promise<{ keys: SyncKeys; document: KeyDocument } | undefined> {
  const finding = await inspectServer(access, mine);
  if (finding.kind === 'unreachable') throw refusal('sync_unreachable', 'The sync server cannot be reached.');
  if (finding.kind !== 'replaced') return undefined;
  const keys = await openKeyDocument(finding.document, passphrase);
  if (!keys) throw refusal('sync_wrong_passphrase', 'Wrong passphrase: it does not open the key document now on this server.');
  return { keys, document: finding.document };
}

export function refusal(reason: 'sync_unreachable' | 'sync_unauthorized' | 'sync_not_a_database' | 'sync_wrong_passphrase' | 'sync_key_missing', message: string): WireError {
  return new WireError({ code: 'invalid_state', reason, message });
}

/** A database URL without credentials in it (they go in a header) and over http(s). */
export function checkedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refusal('sync_not_a_database', 'The sync server URL is not a URL (e.g. https://couch.example.com/parley).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refusal('sync_not_a_database', 'The sync server URL must start with https:// (or http:// for a server on this computer).');
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/$/, '');
}

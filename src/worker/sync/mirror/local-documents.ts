// One document at a time on the mirror's local PouchDB database: a read, this device's own write, and the small local
// values kept on this device only (pouch-database-mirror.ts uses them).
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

export async function getDocument(database: Database<EncryptedDocument>, id: string): Promise<EncryptedDocument | undefined> {
  try {
    const document = (await database.get(id)) as EncryptedDocument;
    return document._deleted ? undefined : document;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

/** Writes a document of this device's own; a revision that arrived from the server meanwhile is written over. */
export async function putOwn(local: Database<EncryptedDocument>, document: EncryptedDocument): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await local.put(document);
      return;
    } catch (error) {
      // This device is the author of what it writes, so it writes over what arrived.
      if ((error as { status?: number }).status !== 409 || attempt >= 3) throw error;
      const current = await getDocument(local, document._id);
      document = { ...document, ...(current?._rev ? { _rev: current._rev } : {}) };
      if (!current) delete document._rev;
    }
  }
}

export async function localValue(local: Database<EncryptedDocument>, key: string): Promise<unknown> {
  try {
    return ((await local.get(`_local/${key}`)) as unknown as { value: unknown }).value;
  } catch {
    return undefined;
  }
}

/**
 * Writes a local value over the revision this mirror wrote last (remembered in `revisions`: one transaction, not a read
 * and a write, for the position the engine keeps after every batch); read first when not known or no longer current.
 */
export async function setLocalValue(local: Database<EncryptedDocument>, revisions: Map<string, string>, key: string, value: unknown): Promise<void> {
  const id = `_local/${key}`;
  const put = (rev: string | undefined) => local.put({ _id: id, ...(rev ? { _rev: rev } : {}), value } as unknown as EncryptedDocument);
  const known = revisions.get(id);
  if (known !== undefined) {
    const written = await put(known).catch(() => undefined);
    if (written) {
      revisions.set(id, written.rev);
      return;
    }
  }
  let rev: string | undefined;
  try {
    rev = (await local.get(id))._rev;
  } catch {
    rev = undefined;
  }
  revisions.set(id, (await put(rev)).rev);
}

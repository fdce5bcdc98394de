import type { ParleyDatabase } from '../../store/database';
import { KEPT_MIRROR_KEY } from '../device';
import { deleteMirrors, MIRROR_NAME_PREFIX } from './pouch-mirror';
import { sameKeyDocument, type KeyDocument } from '../documents/sync-crypto';

/** The mirror "Turn off sync" kept, and what it mirrored: reused only by a "Turn on sync" with the same server and key. */
interface KeptMirror {
  localName: string;
  url: string;
  keyDocument: KeyDocument;
}

/**
 * What "Turn off sync" leaves: `kept` noted for a later "Turn on sync", or nothing, and every other mirror database of
 * this origin deleted (the one sync used, one kept before, any an earlier version left behind).
 */
export async function keepMirror(database: ParleyDatabase, kept: KeptMirror | undefined): Promise<void> {
  if (kept) await database.put('settings', kept, KEPT_MIRROR_KEY);
  else await database.delete('settings', KEPT_MIRROR_KEY);
  await deleteMirrors(kept?.localName);
}

/** The local name of the mirror for "Turn on sync": the kept one if it mirrored this server under this key, else a new one. */
export async function takeKeptMirror(deps: { database: ParleyDatabase; newId(): string }, url: string, keyDocument: KeyDocument): Promise<string> {
  const kept = (await deps.database.get('settings', KEPT_MIRROR_KEY)) as KeptMirror | undefined;
  if (!kept) return `${MIRROR_NAME_PREFIX}${deps.newId()}`;
  await deps.database.delete('settings', KEPT_MIRROR_KEY);
  if (kept.url === url && sameKeyDocument(keyDocument, kept.keyDocument)) return kept.localName;
  await deleteMirrors();
  return `${MIRROR_NAME_PREFIX}${deps.newId()}`;
}

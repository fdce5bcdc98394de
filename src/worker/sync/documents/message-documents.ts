import type { EngineContext } from '../engine-context';
import { documentId } from './sync-crypto';

/** How many message ids are looked up in the mirror at once. */
const CHUNK = 500;

/**
 * Deletes the documents the build before segments wrote for the messages of `conversationIds` (one per message), once
 * those messages are in segments: they only took space in every mirror and on the server. A device on that build passes
 * over a deletion as it passes over any. Resolves with how many were deleted; throws when a deletion was not written.
 */
export async function retireMessageDocuments({ host, keys, mirror }: Pick<EngineContext, 'host' | 'keys' | 'mirror'>, conversationIds: readonly string[]): Promise<number> {
  let deleted = 0;
  for (const conversationId of conversationIds) {
    const messages = await host.allMessages(conversationId);
    for (let start = 0; start < messages.length; start += CHUNK) {
      const ids = await Promise.all(messages.slice(start, start + CHUNK).map((message) => documentId(keys, 'message', message.id)));
      const held = (await mirror.getMany(ids)).filter((document) => document !== undefined);
      if (held.length === 0) continue;
      const error = (await mirror.putMany(held.map((document) => ({ _id: document._id, ...(document._rev ? { _rev: document._rev } : {}), _deleted: true })))).find(Boolean);
      if (error) throw error;
      deleted += held.length;
    }
  }
  return deleted;
}

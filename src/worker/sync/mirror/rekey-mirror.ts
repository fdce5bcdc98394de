import type { SyncPayload } from '../../../schema/sync/sync';
import type { EncryptedDocument, Mirror } from './mirror';
import { SealedDocuments } from '../documents/sealed-documents';
import { segmentId } from '../documents/message-segments';
import { documentId, KEY_DOC_ID, type SyncKeys } from '../documents/sync-crypto';

/** The id a payload has under `keys` (ids are HMACs of what they name, so a new key moves every document). */
async function idUnder(keys: SyncKeys, payload: SyncPayload): Promise<string> {
  switch (payload.kind) {
    case 'conversation':
      return documentId(keys, 'conversation', payload.conversation.id);
    case 'conversation-deleted':
      return documentId(keys, 'conversation', payload.conversationId);
    case 'message':
      return documentId(keys, 'message', payload.message.id);
    case 'segment':
      return segmentId(keys, payload);
    case 'runner':
      return documentId(keys, 'runner', payload.runner.conversationId);
    case 'proposal': {
      const { proposal } = payload;
      return documentId(keys, 'proposal', proposal.conversationId, JSON.stringify(proposal.command), proposal.from.id);
    }
  }
}

/** A payload as it is written under its new id (a proposal names its own id). */
function movedTo(payload: SyncPayload, id: string): SyncPayload {
  return payload.kind === 'proposal' ? { kind: 'proposal', proposal: { ...payload.proposal, id } } : payload;
}

/** Whether `device` wrote the payload as it is now (a record's runner, a runner document's device, a proposal's last writer). */
function writtenBy(payload: SyncPayload, device: string): boolean {
  switch (payload.kind) {
    case 'conversation':
    case 'conversation-deleted':
    case 'message':
    case 'segment':
      return payload.writer === device;
    case 'runner':
      return payload.runner.device.id === device;
    case 'proposal':
      return (payload.proposal.outcome?.by.id ?? payload.proposal.from.id) === device;
  }
}

/**
 * Everything `from` holds (this device's conversations and what it mirrors of others': their runners, records,
 * deletions, proposals), opened with the old keys and sealed again under the new ones into `to`, with what the engine
 * learnt from them (who runs what). `to` then uploads it all to a server set up again under another key. What does not
 * open under the old keys was never used here and is left behind. Resolves with how many documents were written.
 *
 * Every old device that joins does this, so a document arrives from each that held it, each copy a first revision of
 * its own: CouchDB keeps one as the winner by comparing revision ids, which are hashes, and an older copy another device
 * held (a reply as it was while it streamed) won as often as not, while its writer, which never reads back its own
 * writes, left it so. What `device` wrote itself is written twice, so its copy has the longer history and wins wherever
 * the copies meet.
 */
export async function rekeyMirror(from: { mirror: Mirror & { documents(): AsyncIterable<EncryptedDocument[]> }; keys: SyncKeys }, to: { mirror: Mirror; keys: SyncKeys }, device: string): Promise<number> {
  const opened = new SealedDocuments(from.mirror, from.keys);
  const sealed = new SealedDocuments(to.mirror, to.keys);
  let written = 0;
  for await (const page of from.mirror.documents()) {
    const writes: Array<{ id: string; payload: SyncPayload }> = [];
    const own: string[] = [];
    for (const document of page) {
      if (document._id === KEY_DOC_ID) continue;
      const payload = await opened.read(document);
      if (!payload) continue;
      const id = await idUnder(to.keys, payload);
      writes.push({ id, payload: movedTo(payload, id) });
      if (writtenBy(payload, device)) own.push(id);
    }
    const error = (await sealed.writeMany(writes)).find(Boolean);
    if (error) throw error;
    // The same body again, as a second revision.
    const again = (await to.mirror.getMany(own)).filter((document) => document !== undefined);
    const failed = (await to.mirror.putMany(again)).find(Boolean);
    if (failed) throw failed;
    written += writes.length;
  }
  // Who runs what (and what came from elsewhere): the new mirror's engine starts from it, reading its documents from the start.
  const state = await from.mirror.getLocal('state');
  if (state !== undefined) await to.mirror.setLocal('state', state);
  return written;
}

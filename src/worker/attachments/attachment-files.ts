import type { AttachmentContent } from '../../core/run/model';
import type { RunNotice } from '../../schema/events';
import { fromBase64, toBase64 } from '../../core/base64';
import type { AttachmentInput, AttachmentMeta, ExportedAttachment, StoredAttachment } from '../../schema/attachments/attachments';
import { attachmentLimit, bytesAreText, classifyAttachment, MAX_ATTACHMENTS_PER_MESSAGE } from '../../schema/attachments/attachment-kinds';
import { WireError } from '../../schema/wire-error';
import type { ParleyDatabase } from '../store/database';
import type { PreparedAttachment } from './attachment-records';

// Files checked as they are sent, read back for a model step or for the page, and encoded for an export. Loaded with
// the first file (the worker's start does not wait for it).

export type StorageEstimate = () => Promise<{ usage?: number | undefined; quota?: number | undefined } | undefined>;

/** What the browser says Parley uses and may use; undefined where it does not say (then nothing is refused for it). */
const browserStorageEstimate: StorageEstimate = async () => globalThis.navigator?.storage?.estimate?.().catch(() => undefined);

/**
 * Checks the files of a message as the composer did (the UI is not trusted): kind, size, count, images for a model that
 * takes them, text that is text, and that they fit in the browser's quota. Refusals are WireErrors the UI words; this
 * runs before the message's transaction, since reading a Blob is not an IndexedDB request.
 */
export async function prepareAttachments(inputs: readonly AttachmentInput[], options: { acceptsImages: boolean; newId: () => string; estimate?: StorageEstimate }): Promise<PreparedAttachment[]> {
  if (inputs.length > MAX_ATTACHMENTS_PER_MESSAGE) {
    throw new WireError({ code: 'invalid_command', reason: 'attachment_too_many', params: { limit: MAX_ATTACHMENTS_PER_MESSAGE }, message: `At most ${MAX_ATTACHMENTS_PER_MESSAGE} files can go with one message.` });
  }
  const prepared: PreparedAttachment[] = [];
  for (const input of inputs) {
    const kind = classifyAttachment(input.name, input.type);
    if (!kind || (kind.kind === 'text' && !bytesAreText(new Uint8Array(await input.blob.arrayBuffer())))) {
      throw new WireError({ code: 'invalid_command', reason: 'attachment_unsupported', params: { name: input.name }, message: `“${input.name}” is neither an image nor a text file, so it cannot be sent.` });
    }
    if (kind.kind === 'image' && !options.acceptsImages) {
      throw new WireError({ code: 'invalid_command', reason: 'images_not_accepted', params: { name: input.name }, message: `This model does not accept images, so “${input.name}” cannot be sent to it.` });
    }
    const limit = attachmentLimit(kind.kind);
    if (input.blob.size > limit) {
      throw new WireError({ code: 'invalid_command', reason: 'attachment_too_large', params: { name: input.name, size: input.blob.size, limit }, message: `“${input.name}” is ${input.blob.size} bytes; the limit is ${limit}.` });
    }
    prepared.push({ meta: { id: options.newId(), name: input.name, mimeType: kind.mimeType, size: input.blob.size, kind: kind.kind }, blob: input.blob });
  }
  const needed = prepared.reduce((sum, file) => sum + file.meta.size, 0);
  const estimate = needed > 0 ? await (options.estimate ?? browserStorageEstimate)() : undefined;
  if (estimate?.quota !== undefined && estimate.usage !== undefined && estimate.usage + needed > estimate.quota) {
    const available = Math.max(0, estimate.quota - estimate.usage);
    throw new WireError({ code: 'storage_full', reason: 'attachments_over_quota', params: { needed, available }, message: `These files take ${needed} bytes, but the browser lets Parley store only ${available} more. Nothing was sent.` });
  }
  return prepared;
}

/** Sync's `fetchAttachment` (SyncGate): true when the file is stored here now, false while on its way, undefined with sync off. */
export type FetchAttachment = (attachmentId: string, signal?: AbortSignal) => Promise<boolean | undefined>;

/** What the model is told of a file that has not reached this device (history.ts wraps it in the file's tag). */
export const NOT_HERE_YET = '[This file has not reached this device yet (it is still syncing from another device), so its content cannot be given.]';

/** How long a wait for files still syncing goes before the run says so (a file whose chunks are all here is quicker). */
const WAITING_SAID_AFTER_MS = 300;

/** What a model step waits for a file still on its way here with: sync's fetch, the step's signal, its run's notice. */
interface StepFiles {
  fetch: FetchAttachment;
  signal?: AbortSignal;
  onWaiting?(notice: RunNotice | null): void;
}

/**
 * The contents of the files in `metas`, read back for a model step: the records in one transaction, then their bytes
 * (outside it: reading a Blob is not an IndexedDB request). A file not stored here is first asked of sync (`fetch`:
 * another device sent it, its chunks may all be in the mirror, or it is waited for while they keep coming, the run's
 * notice saying so); one that sync says is still on its way is `syncing`, one sync does not know (sync off) is left
 * out: the history says which.
 */
export async function readAttachmentContents(database: ParleyDatabase, metas: readonly AttachmentMeta[], files?: StepFiles): Promise<Map<string, AttachmentContent>> {
  const contents = new Map<string, AttachmentContent>();
  if (metas.length === 0) return contents;
  const read = () => {
    const transaction = database.transaction('attachments', 'readonly');
    return Promise.all(metas.map((meta) => transaction.store.get(meta.id)));
  };
  let records = await read();
  let fetched: Array<boolean | undefined> = [];
  if (files && records.some((record) => !record)) {
    // One file's failure (a full disk) ends the others' waits too: no step waits for them any more.
    const over = new AbortController();
    const signal = files.signal ? AbortSignal.any([files.signal, over.signal]) : over.signal;
    let said = false;
    const saying = setTimeout(() => {
      said = true;
      files.onWaiting?.({ kind: 'waiting_file', message: 'Waiting for a file still syncing from another device.' });
    }, WAITING_SAID_AFTER_MS);
    try {
      fetched = await Promise.all(metas.map((meta, index) => (records[index] ? true : files.fetch(meta.id, signal))));
    } finally {
      over.abort();
      clearTimeout(saying);
      if (said) files.onWaiting?.(null);
    }
    if (fetched.some((here, index) => here && !records[index])) records = await read();
  }
  for (const [index, meta] of metas.entries()) {
    const record = records[index];
    if (!record && fetched[index] === false) contents.set(meta.id, { kind: 'syncing', said: NOT_HERE_YET });
    if (!record) continue;
    const bytes = new Uint8Array(await record.blob.arrayBuffer());
    contents.set(meta.id, meta.kind === 'image' ? { kind: 'image', mediaType: meta.mimeType, bytes } : { kind: 'text', text: new TextDecoder().decode(bytes) });
  }
  return contents;
}

/** A stored file as an export carries it. */
export async function toExported(record: StoredAttachment): Promise<ExportedAttachment> {
  return { id: record.id, messageId: record.messageId, base64: toBase64(new Uint8Array(await record.blob.arrayBuffer())) };
}

/** An export's file as a record (validated before: the base64 is well formed and matches its message's size). */
export function fromExported(file: ExportedAttachment, conversationId: string, mimeType: string): StoredAttachment {
  return { id: file.id, conversationId, messageId: file.messageId, blob: new Blob([fromBase64(file.base64)], { type: mimeType }) };
}


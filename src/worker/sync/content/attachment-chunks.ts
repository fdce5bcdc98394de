import { fromBase64, toBase64 } from '../../../core/base64';
import { AttachmentChunkHeader } from '../../../schema/sync/attachment-chunks';
import type { EncryptedDocument } from '../mirror/mirror';
import { documentId, type SyncKeys } from '../documents/sync-crypto';

// A file's chunk documents (docs/architecture.md, "Sync"): how a file is cut, what each chunk's id is, and how a chunk
// is sealed and opened. AttachmentSync (attachment-sync.ts) sends and puts them together.

/**
 * The most bytes of a file one chunk document holds. Timed with a 5.25 MB image from one device to another through a
 * local pouchdb-server (e2e/sync.spec.ts), three runs each: chunks of 256 KB, 512 KB and 1 MB differed by less than the
 * runs of one size did (7.7–23 s on a machine loaded by other work), so the size is chosen by its bounds: 512 KB keeps
 * one document under 700 KB on the server (CouchDB refuses documents over 8 MB by default) and what one chunk costs in
 * memory small, while a 20 MB image is still only 40 documents.
 */
export const CHUNK_BYTES = 512 * 1024;
/** The mark of a chunk document: its body is bytes sealed with its id, not a sealed JSON payload (`e: 1`). */
export const CHUNK_FORMAT = 2;

/** A file's bytes in chunks of at most `chunkBytes` (an empty file is one empty chunk). */
export function splitIntoChunks(bytes: Uint8Array, chunkBytes = CHUNK_BYTES): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += chunkBytes) parts.push(bytes.subarray(start, start + chunkBytes));
  return parts.length > 0 ? parts : [new Uint8Array(0)];
}

/** A file's bytes put together from its chunks, in order (splitIntoChunks the other way). */
export function joinChunks(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/** The id of a file's chunk: an HMAC like every other document's, saying nothing of the file. */
export function chunkId(keys: SyncKeys, attachmentId: string, index: number): Promise<string> {
  return documentId(keys, 'attachment-chunk', attachmentId, String(index));
}

/**
 * A chunk as the mirror holds it: its header (JSON, length first) and its bytes, sealed with AES-GCM with the document's
 * id as additional data, so a chunk the server copies under another id does not open. Bytes are sealed as bytes: only
 * the ciphertext is base64 (a JSON payload would have been base64 twice, 1.78× the file instead of 1.33×).
 */
export async function sealChunk(keys: SyncKeys, id: string, header: AttachmentChunkHeader, bytes: Uint8Array): Promise<EncryptedDocument> {
  const head = new TextEncoder().encode(JSON.stringify(header));
  const plain = new Uint8Array(4 + head.length + bytes.length);
  new DataView(plain.buffer).setUint32(0, head.length);
  plain.set(head, 4);
  plain.set(bytes, 4 + head.length);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(id) }, keys.content, plain));
  return { _id: id, e: CHUNK_FORMAT, iv: toBase64(iv), ct: toBase64(ct) };
}

/** A chunk's header and bytes; undefined when it does not open with these keys under its id, or is not a chunk. */
export async function openChunk(keys: SyncKeys, document: EncryptedDocument): Promise<{ header: AttachmentChunkHeader; bytes: Uint8Array } | undefined> {
  if (document.e !== CHUNK_FORMAT || !document.iv || !document.ct) return undefined;
  try {
    const plain = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(document.iv), additionalData: new TextEncoder().encode(document._id) }, keys.content, fromBase64(document.ct)));
    const length = new DataView(plain.buffer, plain.byteOffset).getUint32(0);
    if (length > 4096 || 4 + length > plain.length) return undefined;
    const header = AttachmentChunkHeader.safeParse(JSON.parse(new TextDecoder().decode(plain.subarray(4, 4 + length))));
    return header.success ? { header: header.data, bytes: plain.subarray(4 + length) } : undefined;
  } catch {
    return undefined; // another key, altered, or copied under another id
  }
}

/** A file's SHA-256, hex: what a chunk's header says its whole file is. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether two chunks say they are of the same file, cut the same way. */
export function sameFile(a: AttachmentChunkHeader, b: AttachmentChunkHeader): boolean {
  return a.attachmentId === b.attachmentId && a.sha256 === b.sha256 && a.count === b.count && a.size === b.size;
}

/**
 * Chunks `0…count-1` sealed `perWrite` at a time (`seal`) and written (`write`), each write going while the next are
 * sealed, at most `atOnce` writes under way; the first write waits for `ready`. Resolves once every write has; rejects
 * with the first write's failure.
 */
export async function sealAndWrite<T>(count: number, { perWrite, atOnce }: { perWrite: number; atOnce: number }, seal: (index: number) => Promise<T>, write: (items: T[]) => Promise<void>, ready: Promise<void>): Promise<void> {
  const sealFrom = (start: number) => Promise.all(Array.from({ length: Math.min(perWrite, count - start) }, (_, offset) => seal(start + offset)));
  let sealing = sealFrom(0);
  sealing.catch(() => undefined); // awaited below; not unhandled should `ready` fail first
  const writing: Array<Promise<void>> = [];
  await ready;
  for (let start = 0; start < count; start += perWrite) {
    const items = await sealing;
    if (start + perWrite < count) {
      sealing = sealFrom(start + perWrite);
      sealing.catch(() => undefined); // awaited next round; not unhandled should a write throw first
    }
    const written = write(items);
    written.catch(() => undefined); // awaited below, in order
    writing.push(written);
    if (writing.length >= atOnce) await writing.shift();
  }
  for (const written of writing) await written;
}

/// <reference lib="webworker" />
import type { LocalModelError } from '../../../schema/protocol';

/**
 * The files of stored models in the Origin Private File System: `parley-models/<hash of the source>/` holds `meta.json`
 * (the record below) and one `model-0000k-of-0000n.gguf` per split.
 */

const ROOT_DIRECTORY = 'parley-models';
const META_FILE = 'meta.json';

export interface StoredMeta {
  source: string;
  urls: string[];
  /** Each part's full size once the server told it. */
  partBytes: Array<number | null>;
  /** `downloading` also after a reload: the user asked for it and did not cancel, so it resumes. */
  state: 'downloading' | 'ready' | 'error';
  error?: LocalModelError;
  constrainToolCalls?: boolean;
  /** CPU threads chosen by the user; absent or 0 = automatic. */
  threads?: number;
  lastTokensPerSecond?: number;
}

/** A store failure with a code the UI can word; `message` is already a sentence for the user. */
export class LocalModelStoreError extends Error {
  override readonly name = 'LocalModelStoreError';
  readonly detail: LocalModelError;
  constructor(detail: LocalModelError, options?: { cause?: unknown }) {
    super(detail.message, options);
    this.detail = detail;
  }
}

export async function assertRoomFor(bytes: number): Promise<void> {
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
  if (!estimate?.quota || estimate.usage === undefined) return;
  const free = estimate.quota - estimate.usage;
  if (bytes > free) {
    throw new LocalModelStoreError({ code: 'quota', message: `Not enough storage: the model needs ${megabytes(bytes)} MB more but the browser allows only ${megabytes(free)} MB more for Parley. Free some space (or delete another model) and try again. Nothing stored was lost.` });
  }
}

export function storageError(error: unknown): LocalModelStoreError {
  if (error instanceof LocalModelStoreError) return error;
  if (error instanceof DOMException && error.name === 'QuotaExceededError') {
    return new LocalModelStoreError({ code: 'quota', message: 'The browser storage is full, so the model could not be stored completely. What was stored is kept; free some space and press Download to go on.' }, { cause: error });
  }
  return new LocalModelStoreError({ code: 'storage', message: `The model could not be stored: ${error instanceof Error ? error.message : String(error)}` }, { cause: error });
}

export function megabytes(bytes: number): string {
  return Math.ceil(bytes / 1_000_000).toLocaleString('en');
}

/** Named as gguf-split names its files, which is also how the engine orders the parts it is given. */
export function partName(index: number, count: number): string {
  return `model-${String(index + 1).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.gguf`;
}

export async function storedSize(directory: FileSystemDirectoryHandle, parts: number): Promise<number> {
  let total = 0;
  for (let index = 0; index < parts; index++) {
    try {
      total += (await (await directory.getFileHandle(partName(index, parts))).getFile()).size;
    } catch {
      // not started yet
    }
  }
  return total;
}

export async function removeParts(directory: FileSystemDirectoryHandle, parts: number): Promise<void> {
  for (let index = 0; index < parts; index++) await directory.removeEntry(partName(index, parts)).catch(() => undefined);
}

export async function modelsRoot(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(ROOT_DIRECTORY, { create: true });
}

export async function modelDirectory(source: string, create: true): Promise<FileSystemDirectoryHandle>;
export async function modelDirectory(source: string, create: false): Promise<FileSystemDirectoryHandle | undefined>;
export async function modelDirectory(source: string, create: boolean): Promise<FileSystemDirectoryHandle | undefined> {
  const root = await modelsRoot();
  try {
    return await root.getDirectoryHandle(await modelKey(source), { create });
  } catch (error) {
    if (!create && error instanceof DOMException && error.name === 'NotFoundError') return undefined;
    throw error;
  }
}

export async function modelKey(source: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
  return [...new Uint8Array(digest).slice(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The model's meta file. Reads and writes take a Web Lock on it (shared to read, exclusive to write), across this
 * worker's own calls and every other tab's: a status poll that met the download's own write used to read a file
 * replaced under it (`NotReadableError`, or for a moment no file at all) and report a stored model as absent. The lock
 * is the browser's, so a worker killed mid-write (a reload) releases it.
 */
export async function readMeta(directory: FileSystemDirectoryHandle): Promise<StoredMeta | undefined> {
  return navigator.locks.request(metaLockName(directory), { mode: 'shared' }, () => readMetaFile(directory));
}

export async function writeMeta(directory: FileSystemDirectoryHandle, meta: StoredMeta): Promise<void> {
  await navigator.locks.request(metaLockName(directory), { mode: 'exclusive' }, () => writeMetaFile(directory, meta));
}

/** Changes the record in one exclusive hold of its lock (no other write between the read and the write); false when there is none. */
export async function updateMeta(directory: FileSystemDirectoryHandle, change: (meta: StoredMeta) => StoredMeta): Promise<boolean> {
  return navigator.locks.request(metaLockName(directory), { mode: 'exclusive' }, async () => {
    const meta = await readMetaFile(directory);
    if (meta) await writeMetaFile(directory, change(meta));
    return meta !== undefined;
  });
}

async function readMetaFile(directory: FileSystemDirectoryHandle): Promise<StoredMeta | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      const text = await (await (await directory.getFileHandle(META_FILE)).getFile()).text();
      return JSON.parse(text) as StoredMeta;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotFoundError') return undefined; // nothing stored
      // Another writer that does not take the lock (a tab still running an older build): try again shortly.
      if (attempt >= 5) throw storageError(error);
      await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
    }
  }
}

async function writeMetaFile(directory: FileSystemDirectoryHandle, meta: StoredMeta): Promise<void> {
  const writable = await (await directory.getFileHandle(META_FILE, { create: true })).createWritable();
  await writable.write(JSON.stringify(meta));
  await writable.close();
}

function metaLockName(directory: FileSystemDirectoryHandle): string {
  return `parley-model-meta:${directory.name}`;
}

/** What every stored model takes: the sizes of their GGUF files, whole or partly downloaded (not the small records). */
export async function allModelsBytes(): Promise<number> {
  return directoryBytes(await modelsRoot());
}

async function directoryBytes(directory: FileSystemDirectoryHandle): Promise<number> {
  let total = 0;
  // The worker's lib types lack the directory's async iterator, which every browser with OPFS has.
  for await (const entry of (directory as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
    if (entry.kind === 'directory') total += await directoryBytes(entry as FileSystemDirectoryHandle);
    else if (entry.name !== META_FILE) total += (await (entry as FileSystemFileHandle).getFile()).size;
  }
  return total;
}

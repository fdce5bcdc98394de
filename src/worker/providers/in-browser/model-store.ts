/// <reference lib="webworker" />
import type { LocalModelError, LocalModelStatus } from '../../../schema/protocol';
import { checkGguf, hasGgufMagic } from './gguf-check';

/**
 * Downloaded models, in the Origin Private File System: `parley-models/<hash of the source>/` holds `meta.json` and one
 * `model-0000k-of-0000n.gguf` per split. Parts are written in place with a sync access handle and flushed as they arrive, so a reload
 * keeps what was written and the download resumes with a Range request (or restarts cleanly when the server ignores
 * it). One download per model across tabs (a Web Lock). Nothing is fetched unless the user pressed Download.
 */

const ROOT_DIRECTORY = 'parley-models';
const META_FILE = 'meta.json';
const FLUSH_EVERY_BYTES = 1024 * 1024;

interface StoredMeta {
  source: string;
  urls: string[];
  /** Each part's full size once the server told it. */
  partBytes: Array<number | null>;
  /** `downloading` also after a reload: the user asked for it and did not cancel, so it resumes. */
  state: 'downloading' | 'ready' | 'error';
  error?: LocalModelError;
  constrainToolCalls?: boolean;
  lastTokensPerSecond?: number;
}

interface ActiveDownload {
  controller: AbortController;
  done: Promise<void>;
  samples: Array<{ at: number; bytes: number }>;
}

const active = new Map<string, ActiveDownload>();

/** Engine facts the store reports with a model's status; set by the engine once it has loaded. */
export const engineFacts: { source?: string; backend?: LocalModelStatus['backend']; threads?: number } = {};

/** The URLs of a model: one, or every split named like `name-00001-of-00003.gguf`. */
export function splitUrls(url: string): string[] {
  const match = /^(.*-)(\d{5})-of-(\d{5})(\.gguf)(\?.*)?$/i.exec(url);
  if (!match) return [url];
  const count = Number(match[3]);
  return Array.from({ length: count }, (_, index) => `${match[1]}${String(index + 1).padStart(5, '0')}-of-${match[3]}${match[4]}${match[5] ?? ''}`);
}

export async function getStatus(source: string): Promise<LocalModelStatus> {
  const directory = await modelDirectory(source, false);
  const meta = directory ? await readMeta(directory) : undefined;
  if (!directory || !meta) return baseStatus(source, 'absent', 0);
  const storedBytes = await storedSize(directory, meta.urls.length);
  const known = meta.partBytes.every((bytes) => bytes !== null);
  const totalBytes = known ? meta.partBytes.reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0) : undefined;
  let state: LocalModelStatus['state'] = meta.state === 'ready' ? 'ready' : meta.state === 'error' ? 'error' : 'downloading';
  const running = active.get(source);
  if (meta.state === 'downloading' && !running) {
    // A download the user started, cut by a reload: go on with it, unless another tab already does.
    if (await resumeIfFree(source)) state = 'downloading';
    else state = 'paused';
  }
  const status: LocalModelStatus = { ...baseStatus(source, state, storedBytes), constrainToolCalls: meta.constrainToolCalls === true };
  if (totalBytes !== undefined) status.totalBytes = totalBytes;
  if (meta.error && state === 'error') status.error = meta.error;
  if (meta.lastTokensPerSecond !== undefined) status.lastTokensPerSecond = meta.lastTokensPerSecond;
  const speed = running ? bytesPerSecond(running.samples) : undefined;
  if (speed !== undefined && state === 'downloading') {
    status.bytesPerSecond = speed;
    if (totalBytes !== undefined && speed > 0) status.secondsLeft = Math.max(0, (totalBytes - storedBytes) / speed);
  }
  return status;
}

function baseStatus(source: string, state: LocalModelStatus['state'], storedBytes: number): LocalModelStatus {
  const status: LocalModelStatus = { source, state, storedBytes, constrainToolCalls: false, crossOriginIsolated: self.crossOriginIsolated === true };
  const memory = (navigator as WorkerNavigator & { deviceMemory?: number }).deviceMemory;
  if (memory !== undefined) status.deviceMemoryGb = memory;
  if (engineFacts.source === source && engineFacts.backend) {
    status.backend = engineFacts.backend;
    if (engineFacts.threads !== undefined) status.threads = engineFacts.threads;
  }
  return status;
}

/** Starts (or resumes) downloading `source`, an http(s) URL. Resolves once it is under way, not when it ends. */
export async function startDownload(source: string): Promise<LocalModelStatus> {
  if (!/^https?:\/\//i.test(source)) throw new LocalModelStoreError({ code: 'bad_source', message: 'A model URL must start with http:// or https://.' });
  const directory = await modelDirectory(source, true);
  const existing = await readMeta(directory);
  const urls = splitUrls(source);
  const meta: StoredMeta = existing && existing.state !== 'error' ? existing : { source, urls, partBytes: urls.map(() => null), state: 'downloading' };
  if (meta.state === 'ready') return getStatus(source);
  meta.state = 'downloading';
  delete meta.error;
  await writeMeta(directory, meta);
  if (!active.has(source)) await resumeIfFree(source);
  return getStatus(source);
}

/** Stops a running download and removes what it had written: a cancelled download leaves nothing behind. */
export async function cancelDownload(source: string): Promise<LocalModelStatus> {
  const running = active.get(source);
  running?.controller.abort(new DOMException('The download was cancelled.', 'AbortError'));
  await running?.done.catch(() => undefined);
  await removeModel(source);
  return getStatus(source);
}

export async function removeModel(source: string): Promise<void> {
  const running = active.get(source);
  running?.controller.abort(new DOMException('The model was deleted.', 'AbortError'));
  await running?.done.catch(() => undefined);
  if (engineFacts.source === source) await (await import('./engine')).unloadEngine();
  const root = await modelsRoot();
  await root.removeEntry(await modelKey(source), { recursive: true }).catch((error: unknown) => {
    if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
  });
}

/** Stores GGUF files the user picked on the device, under the source `file:<name>`. */
export async function importFiles(name: string, files: Blob[]): Promise<LocalModelStatus> {
  const source = `file:${name}`;
  for (const file of files) {
    const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
    if (!hasGgufMagic(head)) throw new LocalModelStoreError({ code: 'not_gguf', message: `"${name}" is not a GGUF model file (it does not start with the GGUF signature). Nothing was stored.` });
  }
  for (const file of files) {
    const problem = await checkGguf(file);
    if (problem) throw new LocalModelStoreError({ code: problem.code, message: `"${name}" cannot be used: ${problem.detail}. Nothing was stored.` });
  }
  await assertRoomFor(files.reduce((sum, file) => sum + file.size, 0));
  await removeModel(source);
  const directory = await modelDirectory(source, true);
  try {
    for (const [index, file] of files.entries()) {
      const handle = await (await directory.getFileHandle(partName(index, files.length), { create: true })).createSyncAccessHandle();
      try {
        handle.truncate(0);
        let offset = 0;
        const reader = file.stream().getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          handle.write(value, { at: offset });
          offset += value.byteLength;
        }
        handle.flush();
      } finally {
        handle.close();
      }
    }
  } catch (error) {
    await removeModel(source);
    throw storageError(error);
  }
  await writeMeta(directory, { source, urls: files.map((_, index) => `${source}#${index}`), partBytes: files.map((file) => file.size), state: 'ready' });
  return getStatus(source);
}

export async function setOptions(source: string, options: { constrainToolCalls: boolean }): Promise<LocalModelStatus> {
  const directory = await modelDirectory(source, false);
  const meta = directory ? await readMeta(directory) : undefined;
  if (!directory || !meta) throw new LocalModelStoreError({ code: 'not_stored', message: 'This model is not stored on this device.' });
  await writeMeta(directory, { ...meta, constrainToolCalls: options.constrainToolCalls });
  return getStatus(source);
}

/** The stored files of a ready model, and its options; a LocalModelStoreError when it is not (fully) stored. */
export async function openModel(source: string): Promise<{ files: File[]; constrainToolCalls: boolean; totalBytes: number }> {
  const directory = await modelDirectory(source, false);
  const meta = directory ? await readMeta(directory) : undefined;
  if (!directory || !meta || meta.state !== 'ready') {
    throw new LocalModelStoreError({ code: 'not_stored', message: 'This model is not on this device yet. Open Settings, choose the in-browser model and press Download.' });
  }
  const files = await Promise.all(meta.urls.map(async (_, index) => (await directory.getFileHandle(partName(index, meta.urls.length))).getFile()));
  return { files, constrainToolCalls: meta.constrainToolCalls === true, totalBytes: files.reduce((sum, file) => sum + file.size, 0) };
}

export async function recordSpeed(source: string, tokensPerSecond: number): Promise<void> {
  const directory = await modelDirectory(source, false);
  const meta = directory ? await readMeta(directory) : undefined;
  if (directory && meta) await writeMeta(directory, { ...meta, lastTokensPerSecond: tokensPerSecond });
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

async function resumeIfFree(source: string): Promise<boolean> {
  if (active.has(source)) return true;
  const key = await modelKey(source);
  let started = false;
  await new Promise<void>((resolveStarted) => {
    void navigator.locks.request(`parley-model-download:${key}`, { ifAvailable: true }, async (lock) => {
      if (!lock || active.has(source)) {
        resolveStarted();
        return;
      }
      const controller = new AbortController();
      const download: ActiveDownload = { controller, samples: [], done: Promise.resolve() };
      download.done = runDownload(source, download).finally(() => active.delete(source));
      active.set(source, download);
      started = true;
      resolveStarted();
      await download.done.catch(() => undefined);
    });
  });
  return started;
}

async function runDownload(source: string, download: ActiveDownload): Promise<void> {
  const directory = await modelDirectory(source, true);
  const meta = await readMeta(directory);
  if (!meta) return;
  try {
    await warmEngineFiles();
    for (const [index, url] of meta.urls.entries()) {
      await downloadPart(directory, meta, index, url, download);
      await writeMeta(directory, meta);
    }
    const files = await Promise.all(meta.urls.map(async (_, index) => (await directory.getFileHandle(partName(index, meta.urls.length))).getFile()));
    for (const file of files) {
      const problem = await checkGguf(file);
      if (problem?.code === 'not_gguf') throw new LocalModelStoreError({ code: 'not_gguf', message: `This is not a GGUF model file: ${problem.detail}.` });
      if (problem) throw new LocalModelStoreError({ code: 'truncated', message: `The download is incomplete: ${problem.detail}. Delete it and download again.` });
    }
    meta.state = 'ready';
    await writeMeta(directory, meta);
  } catch (error) {
    if (download.controller.signal.aborted) return;
    const detail = error instanceof LocalModelStoreError ? error.detail : storageError(error).detail;
    // A file that is not a model is worth nothing: remove its bytes. Anything else keeps what was stored.
    if (detail.code === 'not_gguf') await removeParts(directory, meta.urls.length);
    await writeMeta(directory, { ...meta, state: 'error', error: detail }).catch(() => undefined);
  }
}

async function downloadPart(directory: FileSystemDirectoryHandle, meta: StoredMeta, index: number, url: string, download: ActiveDownload): Promise<void> {
  const fileHandle = await directory.getFileHandle(partName(index, meta.urls.length), { create: true });
  const handle = await fileHandle.createSyncAccessHandle();
  try {
    let offset = handle.getSize();
    const expected = meta.partBytes[index];
    if (expected !== null && expected !== undefined && offset === expected) return;
    const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-` } : {};
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: download.controller.signal, cache: 'no-store' });
    } catch (error) {
      if (download.controller.signal.aborted) throw error;
      throw new LocalModelStoreError({ code: 'network', message: `The model could not be downloaded (${url}): the network failed or the server does not allow this site (CORS). What was stored is kept; press Download to go on.` }, { cause: error });
    }
    if (response.status === 416 && expected !== null && expected !== undefined && offset >= expected) return;
    if (!response.ok) throw new LocalModelStoreError({ code: 'http', message: `The server answered ${response.status} ${response.statusText} for ${url}.` });
    const total = partTotal(response, offset);
    if (response.status === 200 && offset > 0) {
      // The server ignored the Range request: start this part again from its first byte.
      offset = 0;
      handle.truncate(0);
    }
    if (total !== undefined) {
      if (expected !== null && expected !== undefined && expected !== total) {
        offset = 0;
        handle.truncate(0); // the file changed on the server since the first bytes were stored
      }
      meta.partBytes[index] = total;
      await writeMeta(directory, meta); // the total is known from now on: progress can say "of …"
      await assertRoomFor(total - offset);
    }
    const reader = response.body!.getReader();
    let sinceFlush = 0;
    let checkedMagic = offset >= 4;
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (download.controller.signal.aborted) throw error;
        throw new LocalModelStoreError({ code: 'network', message: 'The download was cut off. What was stored is kept; press Download to go on.' }, { cause: error });
      }
      if (chunk.done) break;
      if (!checkedMagic && offset === 0 && chunk.value.byteLength >= 4) {
        if (!hasGgufMagic(chunk.value)) throw new LocalModelStoreError({ code: 'not_gguf', message: `This is not a GGUF model file: ${url} does not start with the GGUF signature (is it a web page?).` });
        checkedMagic = true;
      }
      handle.write(chunk.value, { at: offset });
      offset += chunk.value.byteLength;
      sinceFlush += chunk.value.byteLength;
      if (sinceFlush >= FLUSH_EVERY_BYTES) {
        handle.flush();
        sinceFlush = 0;
      }
      sample(download, meta, index, offset);
    }
    handle.flush();
    if (total !== undefined && offset !== total) {
      throw new LocalModelStoreError({ code: 'truncated', message: `The download ended after ${offset} of ${total} bytes. What was stored is kept; press Download to go on.` });
    }
    if (total === undefined) meta.partBytes[index] = offset;
  } catch (error) {
    throw error instanceof LocalModelStoreError || download.controller.signal.aborted ? error : storageError(error);
  } finally {
    handle.close();
  }
}

/** A part's full size: from Content-Range on a 206, from Content-Length on a 200. */
function partTotal(response: Response, offset: number): number | undefined {
  if (response.status === 206) {
    const total = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1];
    if (total) return Number(total);
    const length = Number(response.headers.get('content-length'));
    return Number.isFinite(length) && length > 0 ? offset + length : undefined;
  }
  const length = response.headers.get('content-length');
  return length === null ? undefined : Number(length);
}

function sample(download: ActiveDownload, meta: StoredMeta, index: number, offset: number) {
  const before = meta.partBytes.slice(0, index).reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0);
  const now = performance.now();
  download.samples.push({ at: now, bytes: before + offset });
  while (download.samples.length > 2 && now - download.samples[0]!.at > 3000) download.samples.shift();
}

function bytesPerSecond(samples: ActiveDownload['samples']): number | undefined {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < 200) return undefined;
  return ((last.bytes - first.bytes) / (last.at - first.at)) * 1000;
}

/** The engine's wasm goes into the service worker's cache with the model, so the model runs offline afterwards. */
async function warmEngineFiles(): Promise<void> {
  const { ENGINE_WASM_URL } = await import('./engine-assets');
  await fetch(ENGINE_WASM_URL).then((response) => response.arrayBuffer()).catch(() => undefined);
}

async function assertRoomFor(bytes: number): Promise<void> {
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
  if (!estimate?.quota || estimate.usage === undefined) return;
  const free = estimate.quota - estimate.usage;
  if (bytes > free) {
    throw new LocalModelStoreError({ code: 'quota', message: `Not enough storage: the model needs ${megabytes(bytes)} MB more but the browser allows only ${megabytes(free)} MB more for Parley. Free some space (or delete another model) and try again. Nothing stored was lost.` });
  }
}

function storageError(error: unknown): LocalModelStoreError {
  if (error instanceof LocalModelStoreError) return error;
  if (error instanceof DOMException && error.name === 'QuotaExceededError') {
    return new LocalModelStoreError({ code: 'quota', message: 'The browser storage is full, so the model could not be stored completely. What was stored is kept; free some space and press Download to go on.' }, { cause: error });
  }
  return new LocalModelStoreError({ code: 'storage', message: `The model could not be stored: ${error instanceof Error ? error.message : String(error)}` }, { cause: error });
}

function megabytes(bytes: number): string {
  return Math.ceil(bytes / 1_000_000).toLocaleString('en');
}

/** Named as gguf-split names its files, which is also how the engine orders the parts it is given. */
function partName(index: number, count: number): string {
  return `model-${String(index + 1).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.gguf`;
}

async function storedSize(directory: FileSystemDirectoryHandle, parts: number): Promise<number> {
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

async function removeParts(directory: FileSystemDirectoryHandle, parts: number): Promise<void> {
  for (let index = 0; index < parts; index++) await directory.removeEntry(partName(index, parts)).catch(() => undefined);
}

async function modelsRoot(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(ROOT_DIRECTORY, { create: true });
}

async function modelDirectory(source: string, create: true): Promise<FileSystemDirectoryHandle>;
async function modelDirectory(source: string, create: false): Promise<FileSystemDirectoryHandle | undefined>;
async function modelDirectory(source: string, create: boolean): Promise<FileSystemDirectoryHandle | undefined> {
  const root = await modelsRoot();
  try {
    return await root.getDirectoryHandle(await modelKey(source), { create });
  } catch (error) {
    if (!create && error instanceof DOMException && error.name === 'NotFoundError') return undefined;
    throw error;
  }
}

async function modelKey(source: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
  return [...new Uint8Array(digest).slice(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The model's meta file. Reads and writes take a Web Lock on it (shared to read, exclusive to write), across this
 * worker's own calls and every other tab's: a status poll that met the download's own write used to read a file
 * replaced under it (`NotReadableError`, or for a moment no file at all) and report a stored model as absent. The lock
 * is the browser's, so a worker killed mid-write (a reload) releases it.
 */
async function readMeta(directory: FileSystemDirectoryHandle): Promise<StoredMeta | undefined> {
  return navigator.locks.request(metaLockName(directory), { mode: 'shared' }, async () => {
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
  });
}

async function writeMeta(directory: FileSystemDirectoryHandle, meta: StoredMeta): Promise<void> {
  const text = JSON.stringify(meta);
  await navigator.locks.request(metaLockName(directory), { mode: 'exclusive' }, async () => {
    const writable = await (await directory.getFileHandle(META_FILE, { create: true })).createWritable();
    await writable.write(text);
    await writable.close();
  });
}

function metaLockName(directory: FileSystemDirectoryHandle): string {
  return `parley-model-meta:${directory.name}`;
}

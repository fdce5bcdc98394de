/// <reference lib="webworker" />
import { checkGguf, hasGgufMagic } from './gguf-check';
import { ENGINE_CACHE } from '../../../schema/cache-names';
import {
  assertRoomFor, LocalModelStoreError, modelDirectory, partName, readMeta, removeParts, storageError, writeMeta, type StoredMeta,
} from './model-files';

/**
 * One download of a model's parts, in place: each part is written with a sync access handle and flushed as it arrives,
 * so a reload keeps what was written and the next run resumes with a Range request (or restarts the part cleanly when
 * the server ignores it).
 */

const FLUSH_EVERY_BYTES = 1024 * 1024;

export interface ActiveDownload {
  controller: AbortController;
  done: Promise<void>;
  samples: Array<{ at: number; bytes: number }>;
}

export async function runDownload(source: string, download: ActiveDownload): Promise<void> {
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

export function bytesPerSecond(samples: ActiveDownload['samples']): number | undefined {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < 200) return undefined;
  return ((last.bytes - first.bytes) / (last.at - first.at)) * 1000;
}

/**
 * The engine's wasm goes into the service worker's engine cache with the model, so the model runs offline afterwards.
 * Put there directly rather than fetched through the service worker: on a first visit the download can start before the
 * service worker controls this worker, and a fetch then bypassed it (the offline engine had no wasm).
 */
async function warmEngineFiles(): Promise<void> {
  const { ENGINE_WASM_URL } = await import('./engine-assets');
  try {
    const cache = await caches.open(ENGINE_CACHE);
    if (!(await cache.match(ENGINE_WASM_URL))) await cache.add(ENGINE_WASM_URL);
  } catch {
    // No Cache Storage here, or it is full: the engine's first use online caches it through the service worker.
  }
}

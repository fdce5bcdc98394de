/// <reference lib="webworker" />
import { engineThreads } from '../../../schema/limits';
import type { LocalModelStatus } from '../../../schema/protocol';
import { checkGguf, hasGgufMagic } from './gguf-check';
import { bytesPerSecond, runDownload, type ActiveDownload } from './model-download';
import {
  assertRoomFor, LocalModelStoreError, modelDirectory, modelKey, modelsRoot, partName, readMeta, storageError, storedSize, updateMeta, writeMeta, type StoredMeta,
} from './model-files';

export { allModelsBytes, LocalModelStoreError } from './model-files';

/**
 * Downloaded models (files: `model-files.ts`; one download: `model-download.ts`). A download the user started goes on
 * after a reload, unless they cancelled it. One download per model across tabs (a Web Lock). Nothing is fetched unless
 * the user pressed Download.
 */

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
  const status: LocalModelStatus = { ...baseStatus(source, state, storedBytes), constrainToolCalls: meta.constrainToolCalls === true, threadsSetting: meta.threads ?? 0 };
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
  const isolated = self.crossOriginIsolated === true;
  const automaticThreads = engineThreads(0, navigator.hardwareConcurrency || 2, isolated);
  const status: LocalModelStatus = { source, state, storedBytes, constrainToolCalls: false, threadsSetting: 0, automaticThreads, crossOriginIsolated: isolated };
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

export async function setOptions(source: string, options: { constrainToolCalls?: boolean | undefined; threads?: number | undefined }): Promise<LocalModelStatus> {
  const directory = await modelDirectory(source, false);
  const updated = directory && (await updateMeta(directory, (meta) => ({
    ...meta,
    ...(options.constrainToolCalls !== undefined && { constrainToolCalls: options.constrainToolCalls }),
    ...(options.threads !== undefined && { threads: options.threads }),
  })));
  if (!updated) throw new LocalModelStoreError({ code: 'not_stored', message: 'This model is not stored on this device.' });
  return getStatus(source);
}

/** The stored files of a ready model, and its options; a LocalModelStoreError when it is not (fully) stored. */
export async function openModel(source: string): Promise<{ files: File[]; constrainToolCalls: boolean; threads: number; totalBytes: number }> {
  const directory = await modelDirectory(source, false);
  const meta = directory ? await readMeta(directory) : undefined;
  if (!directory || !meta || meta.state !== 'ready') {
    throw new LocalModelStoreError({ code: 'not_stored', message: 'This model is not on this device yet. Open Settings, choose the in-browser model and press Download.' });
  }
  const files = await Promise.all(meta.urls.map(async (_, index) => (await directory.getFileHandle(partName(index, meta.urls.length))).getFile()));
  return { files, constrainToolCalls: meta.constrainToolCalls === true, threads: meta.threads ?? 0, totalBytes: files.reduce((sum, file) => sum + file.size, 0) };
}

export async function recordSpeed(source: string, tokensPerSecond: number): Promise<void> {
  const directory = await modelDirectory(source, false);
  if (directory) await updateMeta(directory, (meta) => ({ ...meta, lastTokensPerSecond: tokensPerSecond }));
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

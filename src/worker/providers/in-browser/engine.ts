import { Wllama } from '@wllama/wllama/esm/index.js';
import { engineThreads } from '../../../schema/limits';
import type { LocalModelStatus } from '../../../schema/protocol';
import { ENGINE_WASM_URL } from './engine-assets';
import { engineFacts, LocalModelStoreError, openModel } from './model-store';

/** Context length the engine is loaded with, unless the model was trained for less (then the model's own length). */
const CONTEXT_TOKENS = 4096;

interface LoadedEngine {
  source: string;
  wllama: Wllama;
  constrainToolCalls: boolean;
  backend: NonNullable<LocalModelStatus['backend']>;
  threads: number;
  /** The context a request gets: the engine's, or less when the model's GGUF says it was trained for less. */
  contextTokens: number;
  /** The thread count it was loaded for: another choice in Settings loads it again. */
  requestedThreads: number;
}

let loaded: LoadedEngine | undefined;
/** Replies generating on the loaded engine: another thread count waits until there are none (a swap would kill them). */
let generating = 0;
let loading: { source: string; threads: number; promise: Promise<LoadedEngine> } | undefined;

/**
 * The engine with `source` loaded, loading it on first use (and unloading another model first). wllama runs llama.cpp
 * in a worker of its own (with its own pthread workers when the page is cross-origin isolated), so the agent host only
 * passes messages while a reply is computed.
 */
export async function loadEngine(source: string): Promise<LoadedEngine> {
  const model = await openModel(source);
  const requestedThreads = engineThreads(model.threads, navigator.hardwareConcurrency || 2, self.crossOriginIsolated === true);
  if (loaded?.source === source && (loaded.requestedThreads === requestedThreads || generating > 0)) {
    loaded.constrainToolCalls = model.constrainToolCalls;
    return loaded;
  }
  if (loading?.source === source && loading.threads === requestedThreads) return loading.promise;
  if (loading) {
    // Another model (or thread count) is loading: let it finish, then load this one in its place.
    await loading.promise.catch(() => undefined);
    return loadEngine(source);
  }
  const promise = (async () => {
    await unloadEngine();
    assertEnoughMemory(model.totalBytes);
    const adapter = await gpuAdapter();
    const wllama = new Wllama({ default: ENGINE_WASM_URL }, { suppressNativeLog: true, logger: quietLogger });
    try {
      await wllama.loadModel(model.files, {
        n_ctx: CONTEXT_TOKENS,
        n_threads: requestedThreads,
        n_gpu_layers: adapter ? 99_999 : 0,
        jinja: true,
        // We parse the model's own tool-call text (tool-call-parser.ts), with the leniency of the other providers.
        skip_chat_parsing: true,
      });
    } catch (error) {
      await wllama.exit().catch(() => undefined);
      throw new LocalModelStoreError({ code: 'load', message: `The in-browser engine could not load this model: ${error instanceof Error ? error.message : String(error)}` }, { cause: error });
    }
    const backend: LoadedEngine['backend'] = adapter ? 'webgpu' : wllama.isMultithread() ? 'wasm-multi' : 'wasm-single';
    // llama.cpp caps a request's context at the length the model was trained for, which its GGUF states.
    const trained = wllama.getLoadedContextInfo().n_ctx_train;
    const contextTokens = trained > 0 ? Math.min(CONTEXT_TOKENS, trained) : CONTEXT_TOKENS;
    const engine: LoadedEngine = { source, wllama, constrainToolCalls: model.constrainToolCalls, backend, threads: wllama.getNumThreads(), requestedThreads, contextTokens };
    Object.assign(engineFacts, { source, backend, threads: engine.threads });
    loaded = engine;
    return engine;
  })();
  loading = { source, threads: requestedThreads, promise };
  try {
    return await promise;
  } finally {
    if (loading?.promise === promise) loading = undefined;
  }
}

/** Marks a reply generating on the loaded engine until the returned function is called (once). */
export function holdEngine(): () => void {
  generating += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    generating -= 1;
  };
}

/** Unloads the engine unless another reply is generating on it (then the next load after it may swap it). */
export async function unloadEngineIfIdle(): Promise<void> {
  if (generating === 0) await unloadEngine();
}

/** Frees the engine's memory (a model deleted, another chosen, or the engine left broken by a failure). */
export async function unloadEngine(): Promise<void> {
  const current = loaded;
  loaded = undefined;
  delete engineFacts.source;
  delete engineFacts.backend;
  delete engineFacts.threads;
  await current?.wllama.exit().catch(() => undefined);
}

/**
 * Refuses a model the device plainly cannot hold: the weights plus about 300 MB (context, runtime) against the memory
 * the browser reports (navigator.deviceMemory is coarse and capped at 8 GB; a tab gets about half of it).
 */
function assertEnoughMemory(modelBytes: number): void {
  const deviceMemoryGb = (navigator as WorkerNavigator & { deviceMemory?: number }).deviceMemory;
  if (deviceMemoryGb === undefined) return;
  const needed = modelBytes + 300_000_000;
  const available = deviceMemoryGb * 1e9 * 0.5;
  if (needed > available) {
    throw new LocalModelStoreError({
      code: 'memory',
      message: `This device reports ${deviceMemoryGb} GB of memory; the model needs about ${(needed / 1e9).toFixed(1)} GB free, more than a browser tab can get here. Choose a smaller model. The stored model was kept.`,
    });
  }
}

async function gpuAdapter(): Promise<unknown> {
  const gpu = (navigator as WorkerNavigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (!gpu) return undefined;
  return gpu.requestAdapter().catch(() => undefined);
}

const quietLogger = { debug: () => {}, log: () => {}, warn: () => {}, error: (...data: unknown[]) => console.error('[in-browser model]', ...data) };

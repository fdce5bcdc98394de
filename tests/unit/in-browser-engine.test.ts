import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The engine module with wllama and the model store replaced: what is checked is when an engine is swapped. */
const engines: Array<{ threads: number; exited: boolean }> = [];
const trainedContext = { tokens: 8192 };
vi.mock('@wllama/wllama/esm/index.js', () => ({
  Wllama: class {
    private record = { threads: 0, exited: false };
    async loadModel(_files: unknown, options: { n_threads: number }) {
      this.record.threads = options.n_threads;
      engines.push(this.record);
    }
    isMultithread() {
      return this.record.threads > 1;
    }
    getNumThreads() {
      return this.record.threads;
    }
    getLoadedContextInfo() {
      return { n_ctx_train: trainedContext.tokens };
    }
    async exit() {
      this.record.exited = true;
    }
  },
}));
const stored = { threads: 0 };
vi.mock('../../src/worker/providers/in-browser/model-store', () => ({
  engineFacts: {},
  LocalModelStoreError: class extends Error {},
  openModel: async () => ({ files: [], constrainToolCalls: false, threads: stored.threads, totalBytes: 1000 }),
}));
vi.mock('../../src/worker/providers/in-browser/engine-assets', () => ({ ENGINE_WASM_URL: 'engine.wasm' }));

const { holdEngine, loadEngine, unloadEngine, unloadEngineIfIdle } = await import('../../src/worker/providers/in-browser/engine');

beforeEach(async () => {
  await unloadEngine();
  engines.length = 0;
  stored.threads = 0;
  trainedContext.tokens = 8192;
  vi.stubGlobal('self', { crossOriginIsolated: true });
  vi.stubGlobal('navigator', { hardwareConcurrency: 4 });
});

describe('the in-browser engine', () => {
  it('loads again with a new thread count when no reply is generating', async () => {
    const first = await loadEngine('https://models.test/tiny.gguf');
    expect(first.threads).toBe(2);
    stored.threads = 4;
    const second = await loadEngine('https://models.test/tiny.gguf');
    expect(second.threads).toBe(4);
    expect(engines[0]!.exited).toBe(true);
  });

  it('keeps the engine a reply is generating on when the thread count changes, and swaps it once the reply is done', async () => {
    const first = await loadEngine('https://models.test/tiny.gguf');
    const release = holdEngine();
    stored.threads = 4;
    // Another conversation's step while the first reply generates: same engine, nothing unloaded under the reply.
    expect(await loadEngine('https://models.test/tiny.gguf')).toBe(first);
    expect(engines[0]!.exited).toBe(false);
    // A failure in that other step does not unload the engine the first reply is using either.
    await unloadEngineIfIdle();
    expect(engines[0]!.exited).toBe(false);
    release();
    const next = await loadEngine('https://models.test/tiny.gguf');
    expect(next.threads).toBe(4);
    expect(engines[0]!.exited).toBe(true);
  });

  it("gives a request the model's own context length when its GGUF says it was trained for less than the engine's", async () => {
    trainedContext.tokens = 2048;
    expect((await loadEngine('https://models.test/small.gguf')).contextTokens).toBe(2048);
    await unloadEngine();
    trainedContext.tokens = 32768;
    expect((await loadEngine('https://models.test/large.gguf')).contextTokens).toBe(4096);
  });
});

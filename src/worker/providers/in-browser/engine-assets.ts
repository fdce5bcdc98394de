import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

/** The engine's WebAssembly, served from Parley's own origin (Vite copies it into the build), never from a CDN. */
export const ENGINE_WASM_URL = new URL(wasmUrl, self.location.href).href;

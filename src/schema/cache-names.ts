// Shared by vite.config.ts (the service worker's runtime caching; loaded by Node, hence a file without imports) and the
// worker (model-download.ts).

/**
 * The service worker's cache of the in-browser model's engine files (`.wasm`): filled by the service worker's runtime
 * caching, and directly by a model's download. Renaming it orphans what users' browsers hold under the old name.
 */
export const ENGINE_CACHE = 'parley-engine';

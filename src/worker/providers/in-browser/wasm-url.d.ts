// Vite turns `?url` imports into the emitted asset's URL; the worker's tsconfig does not load vite/client.
declare module '*.wasm?url' {
  const url: string;
  export default url;
}

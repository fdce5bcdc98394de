/** The in-browser models offered by name in a profile's model list; any other GGUF URL works too. */

interface CatalogEntry {
  label: string;
  url: string;
  /** Download size in bytes, as listed on Hugging Face (approximate where marked in the README). */
  bytes: number;
  /** Memory the model needs while it runs, roughly: weights plus a 4K context. */
  memoryGb: number;
}

/** Small models that call tools in the Qwen/Hermes format, in Q4_K_M. Sizes: see README "In-browser model". */
export const MODEL_CATALOG: readonly CatalogEntry[] = [
  { label: 'Qwen3 0.6B', url: 'https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q4_K_M.gguf', bytes: 396_705_472, memoryGb: 0.8 },
  { label: 'Qwen3.5 0.8B', url: 'https://huggingface.co/unsloth/Qwen3.5-0.8B-GGUF/resolve/main/Qwen3.5-0.8B-Q4_K_M.gguf', bytes: 528_000_000, memoryGb: 1 },
  { label: 'Qwen3 1.7B', url: 'https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf', bytes: 1_107_409_472, memoryGb: 1.6 },
];

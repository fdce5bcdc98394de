/**
 * Watches the windowed log's rows (and the log itself) for size changes: each row's height, by its `data-id`, goes in
 * `heights`; `onResize` follows every batch, told whether a row's height changed. Undefined where there is no layout
 * (a test DOM).
 */
export function rowHeightObserver(heights: Map<string, number>, onResize: (changed: boolean) => void): ResizeObserver | undefined {
  if (typeof ResizeObserver === 'undefined') return undefined;
  return new ResizeObserver((entries) => {
    let changed = false;
    for (const entry of entries) {
      const element = entry.target as HTMLElement;
      const id = element.dataset.id;
      if (!id || !element.isConnected) continue;
      const height = element.offsetHeight;
      if (height > 0 && heights.get(id) !== height) {
        heights.set(id, height);
        changed = true;
      }
    }
    onResize(changed);
  });
}

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
      // A text still adding its slices (LongText) is measured once it is whole: a row left at a height it had only for a
      // few frames would misplace the reader when it comes back into the window.
      if (!id || !element.isConnected || element.querySelector('[data-growing]')) continue;
      const height = element.offsetHeight;
      if (height > 0 && heights.get(id) !== height) {
        heights.set(id, height);
        changed = true;
      }
    }
    onResize(changed);
  });
}

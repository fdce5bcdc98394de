/** Height (px) assumed for a row that was not measured yet. */
const ESTIMATED_ROW_HEIGHT = 120;

/** Rows rendered at most, whatever the viewport: the DOM stays bounded even where rows are tiny or unmeasured. */
export const MAX_RENDERED_ROWS = 40;

/** `offsets[i]` is the top of row i and `offsets[n]` the height of all n rows; unmeasured rows count as estimated. */
export function rowOffsets(ids: readonly string[], heights: ReadonlyMap<string, number>, estimate = ESTIMATED_ROW_HEIGHT): Float64Array {
  const offsets = new Float64Array(ids.length + 1);
  for (let index = 0; index < ids.length; index += 1) offsets[index + 1] = offsets[index]! + (heights.get(ids[index]!) ?? estimate);
  return offsets;
}

/** The index of the row that holds position `y` (clamped to the rows). Binary search: O(log n). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle]! <= y) low = middle;
    else high = middle - 1;
  }
  return low;
}

interface RowRange {
  start: number;
  end: number;
}

/**
 * Which rows to render: those that meet the viewport widened by `overscan` on each side, at most
 * `MAX_RENDERED_ROWS`. Following the bottom, the range is counted from the last row, so it never depends on a
 * scroll position the browser has not laid out yet.
 */
export function visibleRows(offsets: Float64Array, view: { top: number; height: number; overscan: number; atBottom: boolean; max?: number }): RowRange {
  const count = offsets.length - 1;
  const max = view.max ?? MAX_RENDERED_ROWS;
  if (count <= 0) return { start: 0, end: 0 };
  if (view.atBottom) {
    let start = count;
    while (start > 0 && offsets[count]! - offsets[start]! < view.height + view.overscan && count - start < max) start -= 1;
    return { start, end: count };
  }
  const start = rowAt(offsets, Math.max(0, view.top - view.overscan));
  const end = Math.min(count, rowAt(offsets, view.top + view.height + view.overscan) + 1, start + max);
  return { start, end };
}

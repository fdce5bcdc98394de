import { createEffect, createSignal, onCleanup } from 'solid-js';
import { clearHighlights, paintHighlights, renderedMatches } from './find-highlights';
import type { FindState } from './MessageSearch';

export interface FindInListOptions {
  /** The windowed list's `role="log"` element. */
  log(): HTMLElement;
  /** A rendered row's message `seq`, from its `data-id`. */
  seqOf(id: string): number | undefined;
  /** Marks the message of the current match (undefined: none). */
  mark(seq: number | undefined): void;
  /** Brings a message that is not rendered near the view, reading stored messages back to it first. */
  reveal(seq: number): Promise<void>;
  /** Scrolls the log by `delta` px as the reader would: it then no longer follows the latest. */
  scrollBy(delta: number): void;
}

/**
 * "Find in conversation" over MessageList's rows: marks the current match's message, scrolls it (then the match) into
 * view, and draws the highlights from the rendered rows' text, again whenever rows or their text change.
 */
export function createFindInList(options: FindInListOptions) {
  const [find, setFind] = createSignal<FindState>();
  /** After a move to a match, what still has to be scrolled into view: the match, or first its message. */
  let findScroll: 'row' | 'match' | undefined;
  let paintFrame: number | undefined;

  function renderedRow(seq: number): HTMLElement | undefined {
    for (const row of options.log().querySelectorAll<HTMLElement>('.virtual-row')) if (options.seqOf(row.dataset.id ?? '') === seq) return row;
    return undefined;
  }

  /** One drawing per frame however many rows or Markdown steps changed in it. */
  function schedulePaint() {
    if (paintFrame !== undefined) return;
    paintFrame = requestAnimationFrame(paint);
  }

  function paint() {
    paintFrame = undefined;
    const state = find();
    if (!state) return clearHighlights();
    const { ranges, current, currentRow } = renderedMatches(options.log(), state, options.seqOf);
    paintHighlights(ranges, current);
    if (!findScroll || !currentRow) return;
    if (current) {
      findScroll = undefined;
      // A match in reasoning is inside a closed disclosure: open it, or the match cannot be seen.
      const details = current.startContainer.parentElement?.closest('details');
      if (details && !details.open) details.open = true;
      bringIntoView(options, current, 'match');
    } else if (findScroll === 'row') {
      // Its text is not rendered yet (Markdown loads and renders in steps): show the message, the match follows.
      findScroll = 'match';
      bringIntoView(options, currentRow, 'row');
    }
  }

  // While Find shows a query: draw again whenever the DOM of the log changes (rows come and go as it scrolls,
  // Markdown renders in steps, text streams in). Drawing changes no DOM, so it never triggers itself.
  const mutations = typeof MutationObserver === 'undefined' ? undefined : new MutationObserver(schedulePaint);
  createEffect(() => {
    if (!find()) {
      clearHighlights();
      return;
    }
    mutations?.observe(options.log(), { childList: true, subtree: true, characterData: true });
    schedulePaint();
    onCleanup(() => mutations?.disconnect());
  });
  onCleanup(() => {
    if (paintFrame !== undefined) cancelAnimationFrame(paintFrame);
    clearHighlights();
  });

  return {
    /** Find moved (or its query changed): mark the message, bring the match into view, highlight. */
    async showMatch(state: FindState | undefined): Promise<void> {
      setFind(state);
      const seq = state?.current?.seq;
      options.mark(seq);
      findScroll = seq === undefined ? undefined : 'row';
      // A match in a message that is not rendered (never read, or outside the window) is scrolled near first.
      if (seq !== undefined && !renderedRow(seq)) await options.reveal(seq);
      schedulePaint();
    },
    /** The reader scrolls: a match still waiting to be shown (its text not yet rendered) no longer pulls the view. */
    stopPulling(): void {
      findScroll = undefined;
    },
  };
}

/** Scrolls the log so that `target` is in view: a match a third of the way down, a message at its top. */
function bringIntoView(options: FindInListOptions, target: Range | Element, kind: 'match' | 'row') {
  const box = options.log().getBoundingClientRect();
  if (box.height === 0 || typeof target.getBoundingClientRect !== 'function') return; // No layout (a test DOM).
  const rect = target.getBoundingClientRect();
  // The bottom margin keeps a match clear of "Jump to latest", which floats over the log's bottom.
  if (rect.top >= box.top && rect.bottom <= box.bottom - 56) return;
  options.scrollBy(rect.top - box.top - (kind === 'match' ? box.height / 3 : 32));
}

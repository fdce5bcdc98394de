import { createEffect, createSignal, on } from 'solid-js';
import { rowAt } from './virtual-window';

/** How close to the bottom (px) still counts as "reading the latest", so streaming keeps it in view. */
const STICK_DISTANCE = 80;
/** Used before the log was laid out (and in a DOM without layout). */
const DEFAULT_VIEWPORT = 800;

/** The row at the top of the view and how far (px) the view starts below its top: kept while rows above change. */
interface Anchor {
  id: string;
  delta: number;
}

interface Rows {
  /** The scrolling log. */
  log(): HTMLDivElement;
  /** The log's scroll position above the first row (the "Show earlier" header), so offsets map to scrollTop. */
  rowsTop(): number;
  offsets(): Float64Array;
  ids(): readonly string[];
  indexById(): ReadonlyMap<string, number>;
}

/**
 * Where the message list's view is, and keeping it there (MessageList): at the bottom it follows new text until the
 * reader scrolls up; elsewhere the row at the top of the view (the anchor) stays in place while rows above it are
 * measured, arrive or go.
 */
export function scrollFollowing(rows: Rows) {
  const [scrollTop, setScrollTop] = createSignal(0);
  const [viewport, setViewport] = createSignal(DEFAULT_VIEWPORT);
  const [atBottom, setAtBottom] = createSignal(true);
  let anchor: Anchor | undefined;
  /** The log's scrollTop at its last scroll event: which way the reader went. */
  let lastScrollTop = 0;

  function readScroll() {
    const log = rows.log();
    const top = Math.max(0, log.scrollTop - rows.rowsTop());
    setScrollTop(top);
    if (log.clientHeight > 0) setViewport(log.clientHeight);
    const list = rows.ids();
    if (list.length > 0) {
      const index = rowAt(rows.offsets(), top);
      anchor = { id: list[index]!, delta: top - rows.offsets()[index]! };
    }
  }

  function nearEnd(): boolean {
    const log = rows.log();
    return log.scrollHeight - log.scrollTop - log.clientHeight < STICK_DISTANCE;
  }

  function scrollToEnd() {
    rows.log().scrollTop = rows.log().scrollHeight;
  }

  holdPlace(rows, { atBottom, anchor: () => anchor, scrollToEnd, setScrollTop });

  return {
    scrollTop,
    viewport,
    atBottom,
    setViewport,
    nearEnd,
    /** The reader is at the latest again (the end came into view without a scroll event). */
    reachedEnd: () => setAtBottom(true),
    /** The log's scroll event: only a scroll up leaves the latest. */
    scrolled() {
      // The event of the app's own scroll to the end can arrive after the content grew again (a tall reply being
      // measured), and reading "not near the end" then stopped following for good.
      const top = rows.log().scrollTop;
      if (nearEnd()) setAtBottom(true);
      else if (top < lastScrollTop) setAtBottom(false);
      lastScrollTop = top;
      readScroll();
    },
    /** Scrolled by `delta` px on the reader's behalf (Find stepping through matches). */
    scrollBy(delta: number) {
      setAtBottom(false);
      rows.log().scrollTop += delta;
      readScroll();
    },
    /** Puts row `index` at the top of the view, `margin` px below it, and keeps it there. */
    showRow(index: number, margin: number) {
      setAtBottom(false);
      anchor = { id: rows.ids()[index]!, delta: -margin };
      const log = rows.log();
      log.scrollTop = rows.rowsTop() + rows.offsets()[index]! - margin;
      setScrollTop(Math.max(0, log.scrollTop - rows.rowsTop()));
    },
    jumpToLatest() {
      setAtBottom(true);
      scrollToEnd();
    },
    scrollToEnd,
  };
}

/** After rows were measured or messages came or went: stay at the bottom, or keep the anchored row where it was. */
function holdPlace(rows: Rows, view: { atBottom(): boolean; anchor(): Anchor | undefined; scrollToEnd(): void; setScrollTop(top: number): void }) {
  createEffect(
    on(rows.offsets, () => {
      if (view.atBottom()) {
        view.scrollToEnd();
        return;
      }
      const anchor = view.anchor();
      const index = anchor ? rows.indexById().get(anchor.id) : undefined;
      if (anchor && index !== undefined) {
        const log = rows.log();
        const wanted = rows.rowsTop() + rows.offsets()[index]! + anchor.delta;
        if (Math.abs(log.scrollTop - wanted) > 1) log.scrollTop = wanted;
        view.setScrollTop(Math.max(0, log.scrollTop - rows.rowsTop()));
      }
    }),
  );
}

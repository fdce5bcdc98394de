import { findOccurrences } from '../../schema/search/find-matches';
import type { FindState } from './MessageSearch';

// "Find in conversation" draws its matches with the CSS Custom Highlight API: ranges over the rendered text, so the
// model's content is never changed (no <mark> put into it) and incremental Markdown rendering is not disturbed.

/** The highlight of every match shown, and the one of the current match (drawn above it). */
const FIND_MATCHES = 'find-matches';
const FIND_CURRENT = 'find-current';

/**
 * The text Find searches in one rendered message (MessageView): its text blocks (plain or Markdown) and its reasoning,
 * the message's `searchableParts`, which the worker counts in. An unknown block's `.message-text` is not among them.
 */
const SEARCHED = ':scope > .message-text, :scope > .markdown, :scope > .reasoning > .reasoning-text';
/** Inside Markdown, what the renderer adds around the model's text (a code block's header and Copy), and typeset maths. */
const SKIPPED = '.code-header, .code-note, .katex, .math-note';

/**
 * The ranges of every occurrence of `query` in the text of `article`, in reading order. A match may span elements
 * ("**thr**ee" renders as two text nodes), so each block's text nodes are read as one string.
 */
export function occurrenceRanges(article: Element, query: string): Range[] {
  const ranges: Range[] = [];
  for (const root of article.querySelectorAll(SEARCHED)) {
    const nodes: Text[] = [];
    const starts: number[] = [];
    let text = '';
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node instanceof Element && node.matches(SKIPPED) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!(node instanceof Text)) continue;
      nodes.push(node);
      starts.push(text.length);
      text += node.data;
    }
    let index = 0;
    for (const [start, end] of findOccurrences(text, query)) {
      const range = document.createRange();
      // Offsets only grow, so the node holding each one is found by walking forward from the last.
      while (index + 1 < nodes.length && starts[index + 1]! <= start) index += 1;
      range.setStart(nodes[index]!, start - starts[index]!);
      let last = index;
      while (last + 1 < nodes.length && starts[last + 1]! < end) last += 1;
      range.setEnd(nodes[last]!, end - starts[last]!);
      ranges.push(range);
    }
  }
  return ranges;
}

/**
 * Every match in the rows the log renders (a few dozen messages, however long the conversation), and the current
 * match with its row when that row is rendered. `seqOf` gives a row's message seq from its `data-id`.
 */
export function renderedMatches(log: HTMLElement, state: FindState, seqOf: (id: string) => number | undefined): { ranges: Range[]; current?: Range; currentRow?: HTMLElement } {
  const ranges: Range[] = [];
  let current: Range | undefined;
  let currentRow: HTMLElement | undefined;
  for (const row of log.querySelectorAll<HTMLElement>('.virtual-row')) {
    const article = row.firstElementChild;
    if (!article) continue;
    const found = occurrenceRanges(article, state.query);
    ranges.push(...found);
    if (state.current && seqOf(row.dataset.id ?? '') === state.current.seq) {
      currentRow = row;
      // The worker counts in the source text; rendered Markdown can show fewer (a match across its syntax).
      current = found[Math.min(state.current.occurrence, found.length - 1)];
    }
  }
  return { ranges, current, currentRow };
}

/** Whether the browser draws custom highlights; without them Find still counts and moves, and marks the message. */
function highlightsSupported(): boolean {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight === 'function';
}

/** Draws `all` as the matches and `current` as the current one; both are replaced as a whole, each time. */
export function paintHighlights(all: readonly Range[], current: Range | undefined): void {
  if (!highlightsSupported()) return;
  CSS.highlights.set(FIND_MATCHES, new Highlight(...all));
  if (!current) {
    CSS.highlights.delete(FIND_CURRENT);
    return;
  }
  const highlight = new Highlight(current);
  // Above the matches' colour where they overlap (the current one is also among the matches).
  highlight.priority = 1;
  CSS.highlights.set(FIND_CURRENT, highlight);
}

export function clearHighlights(): void {
  if (!highlightsSupported()) return;
  CSS.highlights.delete(FIND_MATCHES);
  CSS.highlights.delete(FIND_CURRENT);
}

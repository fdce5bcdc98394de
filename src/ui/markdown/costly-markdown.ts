/**
 * Containers (list items, quotes) one line may open before the text is shown plain instead of as Markdown: parsing is
 * superlinear in nesting (10,000 nested lists took 878 ms), and no honest reply nests lists past a handful of levels.
 */
const MAX_NESTING = 16;

/**
 * Characters one block outside a code fence (a paragraph, a quote, one list item with all it holds, a table) may have
 * before the text is shown plain: the renderer cannot finish a block before its end, so it parses all of it again at
 * every step (a 300,000-character line: 752 ms; 100,000 characters nested 15 deep under one item: 1.1 s).
 */
const MAX_BLOCK = 20_000;

/** Where a line's nesting is read: the markers of 16 levels fit in far less. */
const PREFIX = 512;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const MARKER = /^(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*/;
/** A top-level list item: the renderer finishes the item before it. */
const TOP_LEVEL_ITEM = /^ ?(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * True when `text` is Markdown that would cost more to render than any step may take: outside fenced code (which is
 * rendered by appending), a line nested deeper than MAX_NESTING or a block longer than MAX_BLOCK. Such text is model
 * output no one reads as formatted anyway; it is shown as plain text (still cut, still selectable). Linear in `text`,
 * reading at most PREFIX characters of a line.
 */
export function tooCostlyForMarkdown(text: string): boolean {
  let fence: string | undefined;
  let blockStart = 0;
  let afterBlank = true;
  for (let from = 0; from <= text.length; ) {
    const newline = text.indexOf('\n', from);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(from, Math.min(end, from + PREFIX));
    const opening = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening) {
        fence = undefined;
        afterBlank = true;
        blockStart = end;
      }
    } else if (opening) {
      fence = opening;
      blockStart = from;
    } else {
      const depth = nesting(line);
      if (depth > MAX_NESTING) return true;
      const blank = line.trim() === '';
      if (!blank && ((afterBlank && depth === 0) || TOP_LEVEL_ITEM.test(line))) blockStart = from;
      if (end - blockStart > MAX_BLOCK) return true;
      afterBlank = blank;
    }
    from = end + 1;
  }
  return false;
}

/** Containers a line opens: its list and quote markers, and its indentation in steps of two columns. */
function nesting(line: string): number {
  const indentation = /^[ \t]*/.exec(line)![0];
  let depth = Math.floor(indentation.replace(/\t/g, '    ').length / 2);
  let rest = line.slice(indentation.length);
  for (let match = MARKER.exec(rest); match && match[0] !== ''; match = MARKER.exec(rest)) {
    depth += 1;
    rest = rest.slice(match[0].length);
  }
  return depth;
}

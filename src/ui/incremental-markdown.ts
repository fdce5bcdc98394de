import type { Token, Tokens } from 'marked';
import { lexMarkdown, renderMarkdownFragment } from './markdown';

/**
 * Renders Markdown that grows at its end (a streamed reply) into `container`, so a reply costs time linear in its
 * length: finished top-level blocks are parsed, sanitized and put in the DOM once; only the tail since the last
 * finished block is lexed and rendered again on each update. The result is the DOM that rendering the whole text
 * at once gives (a property test holds it to that).
 *
 * A block is finished when later text cannot change it: it is followed by a blank line and a complete block that is
 * not a list (which could continue a list above it), or it is an item of a tight top-level list followed by another
 * item (then the items after it are added to the same list element). A link reference definition anywhere changes
 * links anywhere, so once one appears every update renders the whole text.
 */
export class IncrementalMarkdown {
  private committedText = '';
  /** The committed text ends between two items of a tight list: the next chunk's items join its list element. */
  private continuesList = false;
  private tailNodes: Node[] = [];
  private whole = false;
  private rendered = false;

  constructor(private readonly container: HTMLElement) {}

  /** Shows `text`; `more` says more text follows at once (rendering in steps), so the first render looks for cuts too. */
  update(text: string, more = false): void {
    if (!text.startsWith(this.committedText)) this.reset();
    this.removeTail();
    // The first render (a finished message being shown) is one parse; looking for cuts pays off only once it grows.
    if (this.whole || (this.committedText === '' && !this.rendered && !more)) {
      this.rendered = true;
      this.tailNodes = this.insert(text, false);
      return;
    }
    const tail = text.slice(this.committedText.length);
    const tokens = tryLex(tail);
    if (tokens && Object.keys(tokens.links).length > 0) {
      this.reset();
      this.whole = true;
      this.tailNodes = this.insert(text, false);
      return;
    }
    const first = tokens?.[0];
    if (this.continuesList && first?.type === 'list' && (first as Tokens.List).loose) {
      // The list the committed items belong to turned loose: every item renders differently now.
      this.reset();
      this.update(text, more);
      return;
    }
    const cut = tokens ? lastCut(tokens, tail) : undefined;
    if (cut) {
      const finished = tail.slice(0, cut.at);
      this.insert(finished, this.continuesList);
      this.committedText += finished;
      this.continuesList = cut.insideList;
    }
    this.tailNodes = this.insert(cut ? tail.slice(cut.at) : tail, this.continuesList);
  }

  private reset(): void {
    this.container.replaceChildren();
    this.committedText = '';
    this.continuesList = false;
    this.tailNodes = [];
    this.whole = false;
    this.rendered = false;
  }

  private removeTail(): void {
    for (const node of this.tailNodes) node.parentNode?.removeChild(node);
    this.tailNodes = [];
  }

  /** Renders `text` and appends it; a chunk that continues a list puts its items into the list above. Returns the nodes added. */
  private insert(text: string, continuesList: boolean): Node[] {
    if (text === '') return [];
    const fragment = renderChunk(text);
    const added: Node[] = [];
    const list = this.container.lastElementChild;
    const head = fragment.firstElementChild;
    if (continuesList && list && head && head.tagName === list.tagName && (head.tagName === 'UL' || head.tagName === 'OL')) {
      // The chunk's own list starts with a line break the whole list has only once.
      if (list.lastChild?.nodeType === Node.TEXT_NODE) dropLeadingLineBreak(head.firstChild);
      const items = [...head.childNodes];
      for (const item of items) {
        list.appendChild(item);
        added.push(item);
      }
      // The list's line break after it is already in the container.
      if (list.nextSibling?.nodeType === Node.TEXT_NODE) dropLeadingLineBreak(head.nextSibling);
      head.remove();
      // The whole list's closing line break stays last.
      if (list.lastChild?.nodeType !== Node.TEXT_NODE) list.appendChild(document.createTextNode('\n'));
    }
    added.push(...fragment.childNodes);
    this.container.appendChild(fragment);
    return added;
  }
}

function dropLeadingLineBreak(node: ChildNode | null): void {
  if (node?.nodeType !== Node.TEXT_NODE || !node.textContent?.startsWith('\n')) return;
  if (node.textContent === '\n') node.remove();
  else node.textContent = node.textContent.slice(1);
}

/** A text the parser cannot take (nested far too deep overflows its stack) is still shown, as plain text. */
function renderChunk(text: string): DocumentFragment {
  try {
    return renderMarkdownFragment(text);
  } catch {
    const pre = document.createElement('pre');
    pre.className = 'markdown-plain';
    pre.textContent = text;
    const fragment = document.createDocumentFragment();
    fragment.append(pre);
    return fragment;
  }
}

function tryLex(text: string): ReturnType<typeof lexMarkdown> | undefined {
  try {
    return lexMarkdown(text);
  } catch {
    return undefined;
  }
}

const BLANK_LINE_END = /\n[ \t]*\n$/;

/** The last place in `text` before which nothing can change any more, and whether it falls between list items. */
function lastCut(tokens: Token[], text: string): { at: number; insideList: boolean } | undefined {
  let found: { at: number; insideList: boolean } | undefined;
  let position = 0;
  tokens.forEach((token, index) => {
    const last = index === tokens.length - 1;
    if (index > 0 && !last && token.type !== 'list' && token.type !== 'space' && tokens[index - 1]!.type === 'space' && BLANK_LINE_END.test(text.slice(Math.max(0, position - 64), position))) {
      found = { at: position, insideList: false };
    }
    if (token.type === 'list' && !(token as Tokens.List).loose) {
      const items = (token as Tokens.List).items;
      // The last item's raw lacks the list's trailing white space (a text streamed up to a line end or an indent).
      const joined = items.map((item) => item.raw).join('');
      if (token.raw.startsWith(joined) && token.raw.slice(joined.length).trim() === '') {
        let itemStart = position;
        items.forEach((item, itemIndex) => {
          if (itemIndex > 0 && (itemIndex < items.length - 1 || !last)) found = { at: itemStart, insideList: true };
          itemStart += item.raw.length;
        });
      }
    }
    position += token.raw.length;
  });
  // Offsets are only trusted when the tokens cover the text exactly.
  return position === text.length ? found : undefined;
}

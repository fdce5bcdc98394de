import type { Token, Tokens } from 'marked';
import { lexMarkdown, renderMarkdownFragment } from './markdown';

/**
 * What the page adds to rendered Markdown (colours, "Copy code", typeset maths). `added` sees every rendered chunk
 * before it is inserted, with the code element of a fence still open at its end; `grew` is told when text was
 * appended to that open fence, and whether it is now closed (then nothing more is appended).
 */
export interface MarkdownEnhancer {
  added(fragment: DocumentFragment, openCode: HTMLElement | undefined): void;
  grew(code: HTMLElement, closed: boolean): void;
}

/** A fenced code block still open at the end of the text: it grows by appending, never by rendering it again. */
interface OpenFence {
  /** The fence's opening line, newline included. */
  opening: string;
  /** The code text shown so far (the lexer's `text`). */
  shown: string;
  code: HTMLElement;
}

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
 *
 * A fenced code block is finished at both ends: nothing after its complete opening line changes what came before, and
 * nothing after its closing line changes it. While open it is the whole tail, and new text is appended to its code
 * element (so a long streamed block costs what it adds, and its colours are never computed again).
 */
export class IncrementalMarkdown {
  private committedText = '';
  /** The committed text ends between two items of a tight list: the next chunk's items join its list element. */
  private continuesList = false;
  private tailNodes: Node[] = [];
  private whole = false;
  private rendered = false;
  private openFence: OpenFence | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly enhancer?: MarkdownEnhancer,
  ) {}

  /** Shows `text`; `more` says more text follows at once (rendering in steps), so the first render looks for cuts too. */
  update(text: string, more = false): void {
    if (!text.startsWith(this.committedText)) this.reset();
    if (this.openFence && this.growOpenFence(text)) return;
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
    const rest = cut ? tail.slice(cut.at) : tail;
    const fence = tokens ? openFenceAtEnd(tokens, tail.length - rest.length) : undefined;
    this.tailNodes = this.insert(rest, this.continuesList, fence !== undefined);
    const code = fence && this.container.lastElementChild?.querySelector<HTMLElement>('pre > code');
    // Only a fence that is the whole tail can grow in place: its element is then the tail's only block.
    if (fence && code && fence.start === tail.length - rest.length) this.openFence = { opening: fence.opening, shown: fence.text, code };
  }

  /** Appends what arrived to the open fence; false when the text is no longer just that fence growing (render normally). */
  private growOpenFence(text: string): boolean {
    const fence = this.openFence!;
    const tail = text.slice(this.committedText.length);
    if (!tail.startsWith(fence.opening)) return false;
    const tokens = tryLex(tail);
    const first = tokens?.[0];
    if (!tokens || first?.type !== 'code' || !first.raw.startsWith(fence.opening) || Object.keys(tokens.links).length > 0) return false;
    const code = first as Tokens.Code;
    if (!code.text.startsWith(fence.shown)) return false;
    const closed = isClosedFence(code.raw);
    if (!closed && tokens.length > 1) return false;
    if (closed && !(code.raw.endsWith('\n') || tail.charAt(code.raw.length) === '\n')) return false;
    appendCode(fence.code, fence.shown, code.text);
    fence.shown = code.text;
    this.enhancer?.grew(fence.code, closed);
    if (!closed) return true;
    // Closed: the block is finished where it stands; what follows renders as a new tail.
    this.committedText += code.raw;
    this.tailNodes = [];
    this.continuesList = false;
    this.openFence = undefined;
    return false;
  }

  private reset(): void {
    this.container.replaceChildren();
    this.committedText = '';
    this.continuesList = false;
    this.tailNodes = [];
    this.whole = false;
    this.rendered = false;
    this.openFence = undefined;
  }

  private removeTail(): void {
    this.openFence = undefined;
    for (const node of this.tailNodes) node.parentNode?.removeChild(node);
    this.tailNodes = [];
  }

  /** Renders `text` and appends it; a chunk that continues a list puts its items into the list above. Returns the nodes added. */
  private insert(text: string, continuesList: boolean, endsInOpenFence = false): Node[] {
    if (text === '') return [];
    const fragment = renderChunk(text);
    if (this.enhancer) {
      const codes = fragment.querySelectorAll<HTMLElement>('pre > code');
      this.enhancer.added(fragment, endsInOpenFence ? codes[codes.length - 1] : undefined);
    }
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

/** Makes `code` show `next` where it showed `shown` (a prefix of it), touching only its last text node. */
function appendCode(code: HTMLElement, shown: string, next: string): void {
  // The renderer shows a code text without its final line break, plus one line break (see markdown.ts).
  const stem = (text: string) => text.replace(/\n$/, '');
  if (next === shown) return;
  const added = stem(next).slice(stem(shown).length);
  const last = code.lastChild;
  if (shown !== '' && last?.nodeType === Node.TEXT_NODE) (last as Text).insertData((last as Text).length - 1, added);
  else code.append(`${added}\n`);
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** Whether a fenced code token's raw text ends with its closing fence. */
function isClosedFence(raw: string): boolean {
  const lines = raw.replace(/\n$/, '').split('\n');
  const opening = FENCE_LINE.exec(lines[0] ?? '')?.[1];
  const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines.at(-1) ?? '')?.[1];
  return lines.length > 1 && opening !== undefined && closing !== undefined && closing[0] === opening[0] && closing.length >= opening.length;
}

/** The last token when it is a fenced code block still open with its opening line complete: where it starts, and its text. */
function openFenceAtEnd(tokens: Token[], from: number): { start: number; opening: string; text: string } | undefined {
  const last = tokens.at(-1);
  if (last?.type !== 'code' || !FENCE_LINE.test(last.raw) || isClosedFence(last.raw)) return undefined;
  const lineEnd = last.raw.indexOf('\n');
  if (lineEnd < 0) return undefined;
  const start = tokens.slice(0, -1).reduce((sum, token) => sum + token.raw.length, 0);
  return start < from ? undefined : { start, opening: last.raw.slice(0, lineEnd + 1), text: (last as Tokens.Code).text };
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
    if (token.type === 'code' && FENCE_LINE.test(token.raw)) {
      // Before a fence whose opening line is complete, and after one whose closing line is complete.
      if (position > 0 && token.raw.includes('\n')) found = { at: position, insideList: false };
      const end = position + token.raw.length;
      if (isClosedFence(token.raw) && (token.raw.endsWith('\n') || text.charAt(end) === '\n') && end < text.length) found = { at: end, insideList: false };
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

import { t, type MessageKey } from '../i18n/i18n';
import { copyText } from '../messages/clipboard';

/** Lines coloured per task: about 2 ms each on a 2-core machine, so a block never blocks the page for long. */
const CHUNK_LINES = 60;
/** A chunk that ends inside a comment or string grows (doubling) up to this, then is coloured as it is. */
const MAX_CHUNK_LINES = 480;
/** Past these, a block stays plain (colouring would cost more than it helps, and regexes can be slow on huge lines). */
const MAX_LINE_CHARACTERS = 2_000;
const MAX_LINES = 20_000;

type Highlighter = typeof import('./highlighter');
let highlighter: Promise<Highlighter> | undefined;

/**
 * Adds the "Copy code" button to each code block in `root`, and colours the blocks that name a language. `openCode`
 * is a block still streaming: only its complete lines are coloured, as they arrive (see BlockColours).
 */
export function enhanceCodeBlocks(root: ParentNode, openCode: HTMLElement | undefined): void {
  for (const block of within<HTMLElement>(root, '.code-block')) {
    const code = block.querySelector<HTMLElement>('pre > code');
    if (!code) continue;
    addCopyButton(block, code);
    const language = block.querySelector('.code-language')?.textContent ?? '';
    colours.set(code, new BlockColours(block, code, language, code !== openCode));
  }
}

/** An open block got more text (and maybe its closing fence). */
export function codeGrew(code: HTMLElement, closed: boolean): void {
  colours.get(code)?.grew(closed);
}

const colours = new WeakMap<HTMLElement, BlockColours>();

/** The elements matching `selector` in `root`, `root` itself included. */
export function within<Type extends Element>(root: ParentNode, selector: string): Type[] {
  const self = root instanceof Element && root.matches(selector) ? [root as Type] : [];
  return [...self, ...root.querySelectorAll<Type>(selector)];
}

function addCopyButton(block: HTMLElement, code: HTMLElement): void {
  const header = block.querySelector('.code-header');
  if (!header) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button small code-copy';
  button.textContent = t('code.copy');
  const status = document.createElement('span');
  status.className = 'code-copy-status';
  status.setAttribute('role', 'status');
  button.addEventListener('click', () => {
    // The code as written: the renderer's closing line break is not part of it.
    void copyText(code.textContent?.replace(/\n$/, '') ?? '').then((copied) => {
      status.textContent = copied ? t('code.copied') : t('actions.copyFailed');
    });
  });
  header.append(button, status);
}

/**
 * Colours one block (or, in no known language, only cuts it) in chunks of whole lines, one chunk per task, from the start of its plain tail (the code element's
 * last text node). A chunk is kept only if the highlighter ended it at top level, so the next starts fresh and the
 * result is what colouring the whole block at once gives; the last line of an open block is never coloured (it may be
 * half a line), so appending text (incremental-markdown.ts) only ever touches plain text. No line is coloured twice.
 */
class BlockColours {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chunkLines = CHUNK_LINES;
  private stopped = false;
  private lines = 0;

  /** Undefined while the language loads; '' for a block in no language the highlighter knows (cut into chunks only). */
  private language: string | undefined;

  constructor(private readonly block: HTMLElement, private readonly code: HTMLElement, fenceLanguage: string, private closed: boolean) {
    if (fenceLanguage === '') {
      this.language = '';
      this.schedule();
      return;
    }
    highlighter ??= import('./highlighter');
    void highlighter
      .then((module) => module.loadLanguage(fenceLanguage))
      .then((language) => {
        this.language = language ?? '';
        this.schedule();
      }, () => this.stop('code.plainFailed'));
  }

  grew(closed: boolean): void {
    this.closed = closed;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer === undefined && !this.stopped && this.language !== undefined) this.timer = setTimeout(() => void this.step(), 0);
  }

  private async step(): Promise<void> {
    this.timer = undefined;
    const plain = this.code.lastChild;
    if (!this.code.isConnected || this.stopped || plain?.nodeType !== Node.TEXT_NODE) return;
    const text = (plain as Text).data;
    const ready = this.closed ? text.length : text.lastIndexOf('\n', text.length - 2) + 1;
    if (ready <= 0) return;
    const end = Math.min(ready, lineEnd(text, this.chunkLines));
    const chunk = text.slice(0, end);
    const lineCount = countLines(chunk);
    if (this.lines + lineCount > MAX_LINES) return this.stop('code.plainTooLong');
    if (chunk.split('\n').some((line) => line.length > MAX_LINE_CHARACTERS)) return this.stop('code.plainLongLine');
    let coloured: ReturnType<Highlighter['colour']>;
    if (this.language === '') {
      coloured = { nodes: document.createDocumentFragment(), atTopLevel: true };
      coloured.nodes.append(chunk);
    } else {
      try {
        coloured = (await highlighter!).colour(chunk, this.language!);
      } catch {
        return this.stop('code.plainFailed');
      }
      if (!coloured) return this.stop('code.plainFailed');
    }
    const last = this.closed && end === text.length;
    if (!coloured.atTopLevel && !last && this.chunkLines < MAX_CHUNK_LINES) {
      // Inside a comment or string at the cut: try a longer chunk, once there are more lines than this one.
      this.chunkLines *= 2;
      if (end < ready) this.schedule();
      return;
    }
    if (this.code.lastChild !== plain || (plain as Text).data.slice(0, end) !== chunk) return this.schedule();
    const rest = (plain as Text).splitText(end);
    // Each chunk is a block of its own: appending to the tail then lays out only the tail, not every line above it.
    const piece = document.createElement('span');
    piece.className = 'code-chunk';
    piece.style.containIntrinsicBlockSize = `auto ${lineCount}lh`;
    piece.append(coloured.nodes);
    this.code.replaceChild(piece, plain);
    this.lines += lineCount;
    this.chunkLines = CHUNK_LINES;
    if (rest.data.length > 0) this.schedule();
  }

  private stop(reason: MessageKey): void {
    this.stopped = true;
    const note = document.createElement('p');
    note.className = 'code-note';
    note.textContent = t(reason, { lines: (this.code.textContent?.split('\n').length ?? 1) - 1, characters: (this.code.textContent?.length ?? 0).toLocaleString() });
    this.block.append(note);
  }
}

/** The index just past the `lines`-th line break of `text` (or its end). */
function lineEnd(text: string, lines: number): number {
  let index = -1;
  for (let count = 0; count < lines; count++) {
    index = text.indexOf('\n', index + 1);
    if (index < 0) return text.length;
  }
  return index + 1;
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

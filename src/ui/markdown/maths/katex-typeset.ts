import katex from 'katex';
import 'katex/dist/katex.min.css';
import { t } from '../../i18n/i18n';

/** Longer TeX is shown as its source: typesetting cost grows with it, and no reply needs that much in one formula. */
const MAX_TEX = 5_000;

/**
 * KaTeX's settings for model-written TeX: no \href/\url/\htmlClass (`trust: false`), a bound on macro expansion (so
 * `\def\a{\a\a}\a` stops at once) and on sizes (`\rule{1e9em}` is capped), and an error shown in place, not thrown.
 */
const OPTIONS = { throwOnError: false, trust: false, strict: 'ignore', maxExpand: 500, maxSize: 20, output: 'htmlAndMathml' } as const;

const cache = new Map<string, DocumentFragment>();
const CACHE_SIZE = 200;

/**
 * Replaces a placeholder's TeX source (its text) with KaTeX's rendering. The HTML is KaTeX's own, made from the text:
 * nothing the model wrote as markup reaches it. A formula KaTeX cannot render keeps its source, with a note why.
 */
export function typeset(element: HTMLElement): void {
  if (element.dataset.typeset) return;
  const tex = element.textContent ?? '';
  const display = element.classList.contains('math-display');
  element.dataset.typeset = 'true';
  if (tex.length > MAX_TEX) {
    element.append(note(t('maths.tooLong', { characters: tex.length.toLocaleString() })));
    return;
  }
  const key = `${display ? 'D' : 'I'}${tex}`;
  let rendered = cache.get(key);
  if (!rendered) {
    const target = document.createElement('span');
    try {
      katex.render(tex, target, { ...OPTIONS, displayMode: display });
    } catch (error) {
      target.textContent = tex;
      target.append(note(t('maths.failed', { reason: error instanceof Error ? error.message : String(error) })));
    }
    const failed = target.querySelector('.katex-error');
    if (failed) failed.after(note(t('maths.failed', { reason: failed.getAttribute('title') ?? '' })));
    rendered = document.createDocumentFragment();
    rendered.append(...target.childNodes);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, rendered);
  }
  element.replaceChildren(rendered.cloneNode(true));
}

function note(text: string): HTMLElement {
  const span = document.createElement('span');
  span.className = 'math-note';
  span.textContent = text;
  return span;
}

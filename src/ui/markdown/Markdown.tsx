import { createRenderEffect, onCleanup, untrack } from 'solid-js';
import { IncrementalMarkdown } from './incremental-markdown';
import { richMarkdown } from './rich-markdown';
import './rich-markdown.css';

// Loaded with the renderer: the page decides with it whether to render at all, without loading its code first.
export { tooCostlyForMarkdown } from './costly-markdown';
export { prepareSanitizer } from './markdown';

/**
 * At most this much new text is rendered per task; the rest follows in the next tasks. A reply that arrives in one big
 * jump (a burst, a finished message opened, "Show all") so never blocks the page in one long task: the incremental
 * renderer makes each step cost only what it adds. (Measured: 100,000 characters of lists nested 40 deep took about
 * 400 ms to lex and render at once on a 2-core machine.)
 */
export const RENDER_STEP = 6_000;

/**
 * Model text as sanitized Markdown. While `text` grows (streaming) only its changed tail is rendered again. It renders
 * what it is given: LazyMarkdown cuts the text first, and shows it plain where tooCostlyForMarkdown says so.
 */
export function Markdown(props: { text: string }) {
  return <div class="markdown" ref={(element) => renderInSteps(element, () => props.text)} />;
}

/** Keeps `element` rendering `wanted()`, adding at most about RENDER_STEP characters per task. */
function renderInSteps(element: HTMLElement, wanted: () => string): void {
  const view = new IncrementalMarkdown(element, richMarkdown);
  let rendered = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown: string | undefined;

  function step() {
    timer = undefined;
    const text = wanted();
    if (!text.startsWith(rendered)) rendered = '';
    const upTo = stepEnd(text, rendered.length);
    const more = upTo < text.length;
    rendered = text.slice(0, upTo);
    // A reply past RENDER_LIMIT keeps streaming while the rendered part stays the same: nothing to do then.
    if (rendered !== shown) view.update(rendered, more);
    shown = rendered;
    if (more) timer = setTimeout(step, 0);
  }

  createRenderEffect(() => {
    wanted();
    // A step already queued reads the newest text when it runs.
    if (timer === undefined) untrack(step);
  });
  onCleanup(() => clearTimeout(timer));
}

/** Where the next step ends: all of `text` when little is left, else at a line end about RENDER_STEP further. */
function stepEnd(text: string, from: number): number {
  if (text.length - from <= RENDER_STEP) return text.length;
  const lineEnd = text.lastIndexOf('\n', from + RENDER_STEP);
  return lineEnd > from ? lineEnd + 1 : from + RENDER_STEP;
}

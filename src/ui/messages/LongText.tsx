import { batch, createContext, createEffect, createMemo, createSignal, For, onCleanup, Show, untrack, useContext } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { t } from '../i18n/i18n';

/**
 * How much of one text is put in the page at first, whatever shows it (Markdown, plain text, a tool's result). The
 * rest is one click away ("Show all") and never rendered by surprise: a 5 MB message froze the page for 50 s and a
 * 100 MB one crashed the tab on every reopen.
 */
export const RENDER_LIMIT = 100_000;

/**
 * Plain text goes in the page in slices of about this many characters, each its own block: the browser lays out one
 * slice at a time, and the page adds a slice per frame (a long text opened, or "Show all"), so no frame lays out more
 * than this. (Measured: the first 100,000 characters of a 1 MB reply laid out at once were three quarters of its
 * opening's longest task.)
 */
export const TEXT_SLICE = 20_000;

/**
 * Whether a text shown now goes in a slice per frame (true) or all of its cut at once: the message list shows a row it
 * measured before (scrolled back into its window) at once, at the height it keeps the reader's place by.
 */
export const TextInSteps = createContext(true);

/** "Showing the first 100,000 of n characters" and button "Show all". */
export function CutNotice(props: { total: number; onShowAll: () => void }) {
  return (
    <p class="markdown-cut">
      {t('message.cut', { shown: RENDER_LIMIT.toLocaleString(), total: props.total.toLocaleString() })}{' '}
      <button type="button" class="button small" onClick={() => props.onShowAll()}>
        {t('message.showAll')}
      </button>
    </p>
  );
}

/** Under a text the worker clipped for the page (`clippedFrom`): the rest is for Copy and export, not the page. */
export function ClippedNotice(props: { shown: number; total: number }) {
  return (
    <Show when={props.total > props.shown}>
      <p class="markdown-cut">{t('message.clipped', { rest: (props.total - props.shown).toLocaleString() })}</p>
    </Show>
  );
}

/**
 * Text shown as text (never as markup), cut at RENDER_LIMIT with "Show all". The first slice is shown at once, the
 * rest a slice per frame (see TextInSteps), up to the cut or, after "Show all", to the end. `tag` and `class` are the
 * element the text is in; text that grows (streaming) re-renders only its last slice. `whole` acts as "Show all"
 * pressed elsewhere (a reply's Markdown view, which this stands for), and `onShowAll` tells it.
 */
export function LongText(props: { text: string; class: string; tag?: 'p' | 'pre'; whole?: boolean; onShowAll?: () => void; total?: number | undefined }) {
  const [limit, setLimit] = createSignal(useContext(TextInSteps) ? TEXT_SLICE : RENDER_LIMIT);
  const [showingAll, setShowingAll] = createSignal(false);
  const shown = () => Math.min(props.text.length, limit());
  const slices = createMemo(() => textSlices(props.text, shown()));
  /** More to show: text past the slices shown, up to the cut, or (after "Show all") until caught up with the text. */
  const behind = () => (showingAll() ? limit() !== Number.POSITIVE_INFINITY : limit() < Math.min(RENDER_LIMIT, props.text.length));
  let frame: number | undefined;

  // A slice per frame, not per task: tasks between two frames would leave the browser several slices to lay out at once.
  function showMore() {
    frame = undefined;
    if (showingAll() && limit() >= props.text.length) {
      // Caught up: text still streaming in is shown as it comes.
      setLimit(Number.POSITIVE_INFINITY);
      return;
    }
    setLimit(Math.min(showingAll() ? Number.POSITIVE_INFINITY : RENDER_LIMIT, limit() + TEXT_SLICE));
  }
  // A long text opened, or text streaming past the last slice: the next slice in the next frame.
  createEffect(() => {
    if (behind() && frame === undefined) frame = requestAnimationFrame(showMore);
  });
  onCleanup(() => cancelAnimationFrame(frame ?? 0));
  const showAll = () => {
    if (showingAll()) return;
    cancelAnimationFrame(frame ?? 0);
    frame = undefined;
    // One pass: the next slice now (the click shows something at once), and the frame after it queued once.
    batch(() => {
      setShowingAll(true);
      showMore();
    });
    props.onShowAll?.();
  };
  createEffect(() => props.whole && untrack(showAll));

  return (
    <>
      {/* Marked while slices are still being added: the message list measures the row once they are all in. */}
      <Dynamic component={props.tag ?? 'p'} class={props.class} data-growing={behind() ? '' : undefined}>
        <For each={slices()}>{(slice) => <span class="text-slice">{slice}</span>}</For>
      </Dynamic>
      <Show when={!showingAll() && props.text.length > RENDER_LIMIT}>
        <CutNotice total={props.total ?? props.text.length} onShowAll={showAll} />
      </Show>
      {/* Once every character the page holds is shown. */}
      <Show when={limit() === Number.POSITIVE_INFINITY && props.total !== undefined}>
        <ClippedNotice shown={props.text.length} total={props.total ?? 0} />
      </Show>
    </>
  );
}

/**
 * The first `length` characters of `text` in slices of at most TEXT_SLICE, each ending after a line break where one is
 * near (so the blocks look like the one text) and never between the two halves of a surrogate pair. Where a slice ends
 * depends on `text` only, so the slices before the last stay the same while `length` grows a slice at a time.
 */
export function textSlices(text: string, length: number): string[] {
  const slices: string[] = [];
  let from = 0;
  while (from < length) {
    let to = Math.min(text.length, from + TEXT_SLICE);
    if (to < text.length) {
      const lineEnd = text.lastIndexOf('\n', to - 1);
      if (lineEnd >= from + TEXT_SLICE / 2) to = lineEnd + 1;
      // A high surrogate: the first half of a pair.
      else if ((text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to -= 1;
    }
    to = Math.min(to, length);
    slices.push(text.slice(from, to));
    from = to;
  }
  return slices;
}

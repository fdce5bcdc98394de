import { createRenderEffect, createSignal, Show } from 'solid-js';
import { t } from '../i18n/i18n';
import { IncrementalMarkdown } from '../incremental-markdown';

/**
 * How much of one message is rendered as Markdown at first. Parsing is superlinear in nesting and a 10 MB reply
 * overflowed the parser's stack; the rest is one click away ("Show all") and never rendered by surprise.
 */
export const RENDER_LIMIT = 100_000;

/** "Show all" renders this much more per task, so a huge reply never blocks the page in one long task. */
const SHOW_ALL_STEP = 50_000;

/** Model text as sanitized Markdown. While `text` grows (streaming) only its changed tail is rendered again. */
export function Markdown(props: { text: string }) {
  const [limit, setLimit] = createSignal(RENDER_LIMIT);
  const cut = () => props.text.length > limit();
  const shown = () => (cut() ? props.text.slice(0, limit()) : props.text);

  function showAll() {
    // Rendered in steps, one task each: the incremental renderer makes each step cost only what it adds.
    const grow = () => {
      setLimit((current) => current + SHOW_ALL_STEP);
      // Once caught up, text still streaming in is shown as it comes.
      if (cut()) setTimeout(grow, 0);
      else setLimit(Number.POSITIVE_INFINITY);
    };
    grow();
  }

  return (
    <>
      <div
        class="markdown"
        ref={(element) => {
          const view = new IncrementalMarkdown(element);
          createRenderEffect(() => view.update(shown()));
        }}
      />
      <Show when={cut() && limit() === RENDER_LIMIT}>
        <p class="markdown-cut">
          {t('message.cut', { shown: RENDER_LIMIT.toLocaleString(), total: props.text.length.toLocaleString() })}{' '}
          <button type="button" class="button small" onClick={showAll}>
            {t('message.showAll')}
          </button>
        </p>
      </Show>
    </>
  );
}

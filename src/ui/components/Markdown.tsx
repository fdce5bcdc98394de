import { createMemo, createSignal, Show } from 'solid-js';
import { t } from '../i18n/i18n';
import { renderMarkdown } from '../markdown';

/**
 * How much of one message is rendered as Markdown at first. Parsing is superlinear in nesting and a 10 MB reply
 * overflowed the parser's stack; the rest is one click away ("Show all") and never rendered by surprise.
 */
export const RENDER_LIMIT = 100_000;

/** Model text as sanitized Markdown. Re-renders when `text` grows while streaming. */
export function Markdown(props: { text: string }) {
  const [showAll, setShowAll] = createSignal(false);
  const cut = () => !showAll() && props.text.length > RENDER_LIMIT;
  const html = createMemo(() => {
    try {
      return renderMarkdown(cut() ? props.text.slice(0, RENDER_LIMIT) : props.text);
    } catch {
      // A text the parser cannot take (far too deep) is still shown, as plain text.
      return undefined;
    }
  });
  return (
    <>
      <Show when={html() !== undefined} fallback={<pre class="markdown markdown-plain">{props.text}</pre>}>
        <div class="markdown" innerHTML={html()} />
      </Show>
      <Show when={cut()}>
        <p class="markdown-cut">
          {t('message.cut', { shown: RENDER_LIMIT.toLocaleString(), total: props.text.length.toLocaleString() })}{' '}
          <button type="button" class="button small" onClick={() => setShowAll(true)}>
            {t('message.showAll')}
          </button>
        </p>
      </Show>
    </>
  );
}

import { createMemo, createSignal, Show } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { t } from '../i18n/i18n';
import { ClippedNotice, CutNotice, LongText, RENDER_LIMIT } from '../messages/LongText';

type MarkdownModule = typeof import('./Markdown');

// Module-level, owned by no component: Solid's `lazy` keeps its loading state in the first instance that renders it,
// so when the message list removed that row before the code arrived, the rows still shown stayed empty for good.
const [markdown, setMarkdown] = createSignal<MarkdownModule>();
let loading: Promise<void> | undefined;

function loadMarkdown(): void {
  // The renderer is used once its sanitizer is ready: the browser's own, or DOMPurify where it has none.
  loading ??= import('./Markdown').then((module) => module.prepareSanitizer().then(() => module)).then(
    (module) => {
      setMarkdown(() => module);
    },
    // Offline with the chunk not cached, say: the text stays plain, and the next reply shown tries again.
    () => {
      loading = undefined;
    },
  );
}

/**
 * Model text as Markdown, cut at RENDER_LIMIT with "Show all" (parsing is superlinear in nesting, and a 10 MB reply
 * overflowed the parser's stack). The renderer and its sanitizer (marked; DOMPurify only where the browser has no HTML
 * Sanitizer API) load with the first reply shown, not with the app; until then the text shows plain (never as HTML, cut
 * the same way), and the list's row measuring follows the change. Markdown too costly to render in steps is shown plain, and says so.
 */
export function LazyMarkdown(props: { text: string; total?: number | undefined }) {
  loadMarkdown();
  const [whole, setWhole] = createSignal(false);
  const shown = createMemo(() => (whole() ? props.text : props.text.slice(0, RENDER_LIMIT)));
  const costly = createMemo(() => markdown()?.tooCostlyForMarkdown(shown()) ?? false);
  const plain = () => (
    <>
      <Show when={costly()}>
        <p class="markdown-cut">{t('message.plain')}</p>
      </Show>
      <LongText class="message-text" text={props.text} whole={whole()} onShowAll={() => setWhole(true)} total={props.total} />
    </>
  );
  return (
    <Show when={costly() ? undefined : markdown()} fallback={plain()}>
      {(module) => (
        <>
          <Dynamic component={module().Markdown} text={shown()} />
          {/* Once caught up, text still streaming in is shown as it comes. */}
          <Show when={!whole() && props.text.length > RENDER_LIMIT}>
            <CutNotice total={props.total ?? props.text.length} onShowAll={() => setWhole(true)} />
          </Show>
          <Show when={whole() && props.total !== undefined}>
            <ClippedNotice shown={props.text.length} total={props.total ?? 0} />
          </Show>
        </>
      )}
    </Show>
  );
}

import { createSignal, Show } from 'solid-js';
import { Dynamic } from 'solid-js/web';
import { LongText } from './LongText';

type MarkdownComponent = typeof import('./Markdown').Markdown;

// Module-level, owned by no component: Solid's `lazy` keeps its loading state in the first instance that renders it,
// so when the message list removed that row before the code arrived, the rows still shown stayed empty for good.
const [markdown, setMarkdown] = createSignal<MarkdownComponent>();
let loading: Promise<void> | undefined;

function loadMarkdown(): void {
  loading ??= import('./Markdown').then(
    (module) => {
      setMarkdown(() => module.Markdown);
    },
    // Offline with the chunk not cached, say: the text stays plain, and the next reply shown tries again.
    () => {
      loading = undefined;
    },
  );
}

/**
 * Model text as Markdown. The renderer and its sanitizer (marked, DOMPurify: a third of the page's script) load with
 * the first reply shown, not with the app; until then the text shows plain (never as HTML, cut as Markdown is), and the list's row
 * measuring follows the change.
 */
export function LazyMarkdown(props: { text: string }) {
  loadMarkdown();
  return (
    <Show when={markdown()} fallback={<LongText class="message-text" text={props.text} />}>
      {(component) => <Dynamic component={component()} text={props.text} />}
    </Show>
  );
}

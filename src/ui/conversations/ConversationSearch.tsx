import { createSignal, For, onCleanup, Show } from 'solid-js';
import { isUntitled } from '../../schema/conversation-title';
import type { ConversationSearchResult, SearchSnippet } from '../../schema/protocol';
import { routeHash } from '../hash-route';
import { locale, plural, t } from '../i18n/i18n';
import { requestReveal } from '../state/reveal-request';
import './conversation-search.css';

interface ConversationSearchProps {
  /** Asks the worker (`conversations.search`); a failure reads as no results. */
  search: (query: string) => Promise<ConversationSearchResult[]>;
  /** Called after the user opened a result (the narrow layout closes the list). */
  onPicked?: () => void;
  /** The app shell's field, which waits for the app (AppFrame.tsx). */
  disabled?: boolean;
}

/** Waits this long after the last keystroke, so typing a word is one search. */
const SEARCH_DELAY_MS = 200;

/** The snippet's text cut at its ranges: the parts inside a range are drawn as marks. */
export function snippetParts(snippet: SearchSnippet): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const range of snippet.ranges) {
    const start = Math.max(at, Math.min(range.start, snippet.text.length));
    const end = Math.max(start, Math.min(range.end, snippet.text.length));
    if (start > at) parts.push({ text: snippet.text.slice(at, start), marked: false });
    if (end > start) parts.push({ text: snippet.text.slice(start, end), marked: true });
    at = end;
  }
  if (at < snippet.text.length) parts.push({ text: snippet.text.slice(at), marked: false });
  return parts;
}

/** Text with its matched words in `<mark>`: text nodes only, so stored text never becomes markup. */
function Highlighted(props: { snippet: SearchSnippet }) {
  return <For each={snippetParts(props.snippet)}>{(part) => (part.marked ? <mark>{part.text}</mark> : part.text)}</For>;
}

/** "3 matching messages", by the UI language's plural rules and with its digits. */
function matchingWords(count: number): string {
  return t(plural(count, 'conversationSearch.matchingOne', 'conversationSearch.matching'), { count: new Intl.NumberFormat(locale()).format(count) });
}

/**
 * Searchbox "Search conversations" above the conversation list: titles and message text of every conversation, from
 * the worker's index. Each result is one conversation, a link holding its title, its best-matching message's snippet
 * and how many of its messages match; opening it scrolls to that best message.
 */
export function ConversationSearch(props: ConversationSearchProps) {
  const [query, setQuery] = createSignal('');
  const [results, setResults] = createSignal<ConversationSearchResult[] | undefined>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = '';
  onCleanup(() => clearTimeout(timer));

  function changed(value: string) {
    setQuery(value);
    clearTimeout(timer);
    latest = value.trim();
    if (!latest) return setResults(undefined);
    timer = setTimeout(() => void run(latest), SEARCH_DELAY_MS);
  }

  async function run(wanted: string) {
    const found = await props.search(wanted).catch(() => []);
    if (wanted === latest) setResults(found); // else a newer query is on its way
  }

  function open(result: ConversationSearchResult) {
    if (result.best) requestReveal(result.conversationId, result.best.seq);
    props.onPicked?.();
  }

  return (
    <div class="conversation-search">
      <input
        type="search"
        class="input"
        disabled={props.disabled}
        aria-label={t('conversationSearch.label')}
        placeholder={t('conversationSearch.label')}
        value={query()}
        onInput={(event) => changed(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && query()) {
            event.preventDefault();
            event.stopPropagation();
            changed('');
          }
        }}
      />
      <Show when={results()}>
        {(found) => (
          <Show when={found().length > 0} fallback={<p class="conversation-search-empty" role="status">{t('conversationSearch.none')}</p>}>
            <ul class="conversation-search-results" aria-label={t('conversationSearch.results')}>
              <For each={found()}>
                {(result) => (
                  <li>
                    <a href={routeHash({ name: 'conversation', conversationId: result.conversationId })} onClick={() => open(result)}>
                      <span class="conversation-search-title">
                        <Show when={!isUntitled(result.title.text)} fallback={t('conversation.untitled')}>
                          <Highlighted snippet={result.title} />
                        </Show>
                      </span>
                      <Show when={result.best}>
                        {(best) => (
                          <span class="conversation-search-snippet">
                            <Highlighted snippet={best().snippet} />
                          </span>
                        )}
                      </Show>
                      <Show when={result.matchingMessages > 0}>
                        <span class="conversation-search-count">{matchingWords(result.matchingMessages)}</span>
                      </Show>
                    </a>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        )}
      </Show>
    </div>
  );
}

import { createSignal, lazy, onCleanup, Show, Suspense } from 'solid-js';
import type { ConversationSearchResult } from '../../schema/protocol';
import { t, withStrings } from '../i18n/i18n';
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

// The results' code loads beside the first search (before its answer is shown) or when the field is reached for: the
// home screen shows only the field.
const SearchResults = lazy(() => withStrings('views', () => import('./ConversationSearchResults')).then((module) => ({ default: module.ConversationSearchResults })));
const preloadResults = () => SearchResults.preload();

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
    const [found] = await Promise.all([props.search(wanted).catch(() => []), preloadResults().catch(() => undefined)]);
    if (wanted === latest) setResults(found); // else a newer query is on its way
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
        onFocus={() => void preloadResults().catch(() => undefined)}
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
          <Suspense fallback={null}>
            <SearchResults found={found()} onPicked={() => props.onPicked?.()} />
          </Suspense>
        )}
      </Show>
    </div>
  );
}

import { createSignal, onCleanup, onMount, Show } from 'solid-js';
import type { MessageMatches } from '../../schema/search/find-matches';
import { t } from '../i18n/i18n';
import { CloseIcon, NewerIcon, OlderIcon } from '../common/icons';

/** What Find shows: the query whose matches are highlighted, and the current match, if there is one. */
export interface FindState {
  query: string;
  /** The current match: the `occurrence`-th (from 0, in reading order) in the message with `seq`. */
  current?: { seq: number; occurrence: number };
}

interface MessageSearchProps {
  /** Every stored message containing `query`, oldest first, with how many times it does. */
  search: (query: string) => Promise<MessageMatches[]>;
  /** Called when the matches or the current one change (bring it into view, highlight); undefined when cleared. */
  onFind: (state: FindState | undefined) => void;
  onClose: () => void;
}

/** Waits this long after the last keystroke before searching, so typing a word is one search. */
const SEARCH_DELAY_MS = 200;

/**
 * "Find in conversation": the log holds only the messages near the view, so the browser's own find cannot see the
 * rest. Counts every match in every stored message and walks them one by one, newest first (Enter: older,
 * Shift+Enter: newer); the status says which of all the matches is the current one ("3 of 60").
 */
export function MessageSearch(props: MessageSearchProps) {
  let input!: HTMLInputElement;
  const [found, setFound] = createSignal<{ query: string; matches: MessageMatches[]; total: number } | undefined>();
  const [current, setCurrent] = createSignal(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latestQuery = '';

  onMount(() => input.focus());
  onCleanup(() => {
    clearTimeout(timer);
    props.onFind(undefined);
  });

  function queryChanged(query: string) {
    clearTimeout(timer);
    latestQuery = query.trim();
    if (!latestQuery) {
      setFound(undefined);
      props.onFind(undefined);
      return;
    }
    timer = setTimeout(() => void run(latestQuery), SEARCH_DELAY_MS);
  }

  async function run(query: string) {
    const matches = await props.search(query).catch((): MessageMatches[] => []);
    if (query !== latestQuery) return; // A newer query is on its way.
    const total = matches.reduce((sum, match) => sum + match.count, 0);
    setFound({ query, matches, total });
    show(total - 1);
  }

  /** Makes the `index`-th of all matches (oldest first, wrapping around) the current one. */
  function show(index: number) {
    const result = found();
    if (!result) return;
    if (result.total === 0) {
      props.onFind({ query: result.query });
      return;
    }
    const wrapped = (index + result.total) % result.total;
    setCurrent(wrapped);
    props.onFind({ query: result.query, current: locate(result.matches, wrapped) });
  }

  const status = () => {
    const result = found();
    if (result === undefined) return '';
    if (result.total === 0) return t('search.none');
    return t('search.position', { current: current() + 1, total: result.total });
  };

  return (
    <div class="message-search" role="search" aria-label={t('search.label')}>
      <input
        ref={input}
        type="search"
        class="input"
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        onInput={(event) => queryChanged(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            show(current() + (event.shiftKey ? 1 : -1));
          } else if (event.key === 'Escape') {
            event.preventDefault();
            props.onClose();
          }
        }}
      />
      <span class="message-search-status" role="status">
        {status()}
      </span>
      <Show when={(found()?.total ?? 0) > 1}>
        <button type="button" class="button small find-step" onClick={() => show(current() - 1)}>
          <OlderIcon />
          <span class="label-text">{t('search.older')}</span>
        </button>
        <button type="button" class="button small find-step" onClick={() => show(current() + 1)}>
          <NewerIcon />
          <span class="label-text">{t('search.newer')}</span>
        </button>
      </Show>
      <button type="button" class="button small find-step" onClick={() => props.onClose()}>
        <CloseIcon />
        <span class="label-text">{t('search.close')}</span>
      </button>
    </div>
  );
}

/** The message and the place in it of the `index`-th of all matches (oldest first). */
function locate(matches: readonly MessageMatches[], index: number): { seq: number; occurrence: number } | undefined {
  let before = 0;
  for (const match of matches) {
    if (index < before + match.count) return { seq: match.seq, occurrence: index - before };
    before += match.count;
  }
  return undefined;
}

import { createSignal, onCleanup, onMount, Show } from 'solid-js';
import { t } from '../i18n/i18n';

export interface MessageSearchProps {
  /** The seqs of stored messages that contain `query`, oldest first. */
  search: (query: string) => Promise<number[]>;
  /** Bring the message with this seq into view and mark it. */
  onMatch: (seq: number | undefined) => void;
  onClose: () => void;
}

/** Waits this long after the last keystroke before searching, so typing a word is one search. */
const SEARCH_DELAY_MS = 200;

/**
 * "Find in conversation": the log holds only the messages near the view, so the browser's own find cannot see the
 * rest. Searches every stored message and walks the matches, newest first (Enter: older, Shift+Enter: newer).
 */
export function MessageSearch(props: MessageSearchProps) {
  let input!: HTMLInputElement;
  const [matches, setMatches] = createSignal<number[] | undefined>();
  const [current, setCurrent] = createSignal(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latestQuery = '';

  onMount(() => input.focus());
  onCleanup(() => {
    clearTimeout(timer);
    props.onMatch(undefined);
  });

  function queryChanged(query: string) {
    clearTimeout(timer);
    latestQuery = query.trim();
    if (!latestQuery) {
      setMatches(undefined);
      props.onMatch(undefined);
      return;
    }
    timer = setTimeout(() => void run(latestQuery), SEARCH_DELAY_MS);
  }

  async function run(query: string) {
    const found = await props.search(query).catch(() => []);
    if (query !== latestQuery) return; // A newer query is on its way.
    setMatches(found);
    show(found.length - 1);
  }

  function show(index: number) {
    const list = matches() ?? [];
    if (list.length === 0) {
      props.onMatch(undefined);
      return;
    }
    const wrapped = (index + list.length) % list.length;
    setCurrent(wrapped);
    props.onMatch(list[wrapped]);
  }

  const status = () => {
    const list = matches();
    if (list === undefined) return '';
    if (list.length === 0) return t('search.none');
    return t('search.position', { current: current() + 1, total: list.length });
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
      <Show when={(matches()?.length ?? 0) > 1}>
        <button type="button" class="button small" onClick={() => show(current() - 1)}>
          {t('search.older')}
        </button>
        <button type="button" class="button small" onClick={() => show(current() + 1)}>
          {t('search.newer')}
        </button>
      </Show>
      <button type="button" class="button small" onClick={() => props.onClose()}>
        {t('search.close')}
      </button>
    </div>
  );
}

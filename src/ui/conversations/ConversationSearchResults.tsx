import { For, Show } from 'solid-js';
import { isUntitled } from '../../schema/conversation-title';
import type { ConversationSearchResult, SearchSnippet } from '../../schema/protocol';
import { routeHash } from '../hash-route';
import { locale, plural, t } from '../i18n/i18n';
import { requestReveal } from '../state/reveal-request';

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
 * The results of a search across conversations (ConversationSearch.tsx): each one conversation, a link holding its
 * title, its best-matching message's snippet and how many of its messages match; opening it scrolls to that message.
 */
export function ConversationSearchResults(props: { found: readonly ConversationSearchResult[]; onPicked(): void }) {
  function open(result: ConversationSearchResult) {
    if (result.best) requestReveal(result.conversationId, result.best.seq);
    props.onPicked();
  }

  return (
    <Show when={props.found.length > 0} fallback={<p class="conversation-search-empty" role="status">{t('conversationSearch.none')}</p>}>
      <ul class="conversation-search-results" aria-label={t('conversationSearch.results')}>
        <For each={props.found}>
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
  );
}

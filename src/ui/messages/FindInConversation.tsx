import { onCleanup } from 'solid-js';
import type { MessageMatches } from '../../schema/search/find-matches';
import type { Message } from '../../schema/records';
import { countInMessage } from '../../schema/search/searchable-text';
import { createFindInList, type FindInListOptions } from './find-in-list';
import { MessageSearch } from './MessageSearch';

interface FindInConversationProps extends FindInListOptions {
  /** Finds in the stored conversation; without it, in the messages the page holds (`loaded`). */
  search: ((query: string) => Promise<MessageMatches[]>) | undefined;
  loaded: () => readonly Message[];
  onClose: () => void;
  /** The reader scrolled the log: a match still waiting to be shown no longer pulls the view. */
  onStopPulling: (stop: (() => void) | undefined) => void;
}

/**
 * "Find in conversation" while it is open: the search field and the highlights over MessageList's rows. Its code loads
 * when Find is first reached for (MessageList), not with the conversation: a reply does not need it.
 */
export function FindInConversation(props: FindInConversationProps) {
  const finder = createFindInList(props);
  props.onStopPulling(finder.stopPulling);
  onCleanup(() => props.onStopPulling(undefined));
  const search = (query: string) => props.search?.(query) ?? Promise.resolve(loadedMatches(props.loaded(), query));
  return <MessageSearch search={search} onFind={(state) => void finder.showMatch(state)} onClose={props.onClose} />;
}

/** Find's matches in the messages the page holds, counted as the worker counts them (schema/search/searchable-text.ts). */
function loadedMatches(messages: readonly Message[], query: string): MessageMatches[] {
  return messages.map((message) => ({ seq: message.seq, count: countInMessage(message, query) })).filter((match) => match.count > 0);
}

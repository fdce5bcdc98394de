import { onCleanup } from 'solid-js';
import type { MessageMatches } from '../../schema/search/find-matches';
import { createFindInList, type FindInListOptions } from './find-in-list';
import { MessageSearch } from './MessageSearch';

interface FindInConversationProps extends FindInListOptions {
  search: (query: string) => Promise<MessageMatches[]>;
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
  return <MessageSearch search={props.search} onFind={(state) => void finder.showMatch(state)} onClose={props.onClose} />;
}

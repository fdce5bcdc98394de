import type { MessageMatches } from '../../schema/search/find-matches';
import { countInMessage } from '../../schema/search/searchable-text';
import type { ParleyDatabase } from './database';
import { listMessages } from './message-pages';

// Find in conversation's count in the worker: loaded with the first search, not with the first screen's pages.

/**
 * Every message on the path whose searchable text (`searchableParts`) contains `query`, oldest first, with how many
 * times (see `findOccurrences`): Find counts and walks matches, not messages. All of them: the result is one pair per message.
 */
export async function searchMessages(database: ParleyDatabase, conversationId: string, query: string): Promise<MessageMatches[]> {
  const messages = await listMessages(database, conversationId);
  const matches: MessageMatches[] = [];
  for (const message of messages) {
    const count = countInMessage(message, query);
    if (count > 0) matches.push({ seq: message.seq, count });
  }
  return matches;
}

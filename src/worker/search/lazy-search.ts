import type { ParleyDatabase } from '../store/database';
import type { ConversationSearch } from './conversation-search';

/** What the worker uses of search across conversations: it follows the change feed and answers searches. */
export type Search = Pick<ConversationSearch, 'follow' | 'search'>;

/**
 * Search across conversations with its code loaded by the first search. Until then there is no index, and
 * ConversationSearch notes no change while it has none, so following the feed before it loads is doing nothing.
 */
export function lazySearch(database: ParleyDatabase): Search {
  let search: ConversationSearch | undefined;
  let loading: Promise<ConversationSearch> | undefined;
  const load = () =>
    (loading ??= import('./conversation-search').then((module) => (search = new module.ConversationSearch(database))).catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return {
    follow: (change) => search?.follow(change),
    search: async (query, limit) => (search ?? (await load())).search(query, limit),
  };
}

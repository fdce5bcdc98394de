/** The results of a search across conversations (ConversationSearchResults.tsx), loaded with them (views-dictionary.ts). */
const en = {
  'conversationSearch.results': 'Matching conversations',
  'conversationSearch.none': 'No conversations match',
  'conversationSearch.matchingOne': '{count} matching message',
  'conversationSearch.matching': '{count} matching messages',
} as const;

export const searchResultStrings = { en };

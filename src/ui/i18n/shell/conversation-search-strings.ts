
/** Search across conversations (ConversationSearch): the searchbox above the conversation list and its results. */
const en = {
  'conversationSearch.label': 'Search conversations',
  'conversationSearch.results': 'Matching conversations',
  'conversationSearch.none': 'No conversations match',
  'conversationSearch.matchingOne': '{count} matching message',
  'conversationSearch.matching': '{count} matching messages',
};

export const conversationSearchStrings = { en };


/** Search across conversations (ConversationSearch): the searchbox above the conversation list and its results. */
const en = {
  'conversationSearch.label': 'Search conversations',
};

export const conversationSearchStrings = { en };

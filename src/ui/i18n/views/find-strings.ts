/**
 * Find in conversation's field (MessageSearch), loaded with it (views-dictionary.ts); its button's name is in
 * search-strings.ts, shown with the conversation.
 */
const en = {
  'search.label': 'Find in conversation',
  'search.placeholder': 'Find in conversation',
  'search.none': 'No matches',
  'search.position': '{current} of {total}',
  'search.older': 'Older match',
  'search.newer': 'Newer match',
  'search.close': 'Close search',
} as const;

export const findStrings = { en };

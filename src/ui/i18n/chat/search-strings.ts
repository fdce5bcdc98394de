
/** Find in conversation (MessageSearch): the app's own search, since a long conversation is not all in the page. */
const en = {
  'search.open': 'Find in conversation',
  'search.label': 'Find in conversation',
  'search.placeholder': 'Find in conversation',
  'search.none': 'No matches',
  'search.position': '{current} of {total}',
  'search.older': 'Older match',
  'search.newer': 'Newer match',
  'search.close': 'Close search',
};

export const searchStrings = { en };

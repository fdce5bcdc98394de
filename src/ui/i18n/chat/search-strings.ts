
/**
 * Find in conversation's button, shown with the conversation; the field's own words (MessageSearch) are find-strings.ts,
 * loaded with it. The app's own search, since a long conversation is not all in the page.
 */
const en = {
  'search.open': 'Find in conversation',
};

export const searchStrings = { en };

/**
 * A conversation's stored title holds no UI words: it is empty until the first message names it, and the UI shows a
 * placeholder in its own language. Conversations stored before that carry the English literal below, read the same way
 * (no migration: the first message still names them, and an unused one is still cleaned up).
 */
export const UNTITLED = '';

/** What earlier versions stored as a new conversation's title. Read as untitled; never written. */
const LEGACY_UNTITLED = 'New conversation';

/** Whether a stored title is the absence of one: empty, or the English placeholder stored before. */
export function isUntitled(title: string): boolean {
  return title.trim() === '' || title === LEGACY_UNTITLED;
}

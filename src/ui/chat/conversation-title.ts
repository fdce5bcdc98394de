import { isUntitled } from '../../schema/conversation-title';
import { t } from '../i18n/i18n';

/** A conversation's title as shown: its own, or "New conversation" in the UI's language while it has none. */
export function shownTitle(title: string): string {
  return isUntitled(title) ? t('conversation.untitled') : title;
}

/** A conversation's title as its rename field starts: its own, or empty while it has none. */
export function editableTitle(title: string): string {
  return isUntitled(title) ? '' : title;
}

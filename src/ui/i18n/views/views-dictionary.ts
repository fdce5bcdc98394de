import { attachmentChipStrings } from './attachment-chip-strings';
import { findStrings } from './find-strings';
import { requestViewStrings } from './request-view-strings';
import { versionStrings } from './version-strings';
import { syncViewStrings } from './sync-view-strings';
import { searchResultStrings } from './search-result-strings';
import { headerFormStrings } from './header-form-strings';
import { shortcutStrings } from './shortcut-strings';

/**
 * The English strings of the conversation's views that load on use (a tool call's card and the request forms, Find in
 * conversation, the attachment chips, a message's versions and its editor, a synced conversation's notices, the results of
 * a search across conversations, the header's forms, the shortcuts' dialog): a chunk loaded with their code, not with the page (see loadStrings).
 */
export const viewsEnglish = { ...requestViewStrings.en, ...findStrings.en, ...attachmentChipStrings.en, ...versionStrings.en, ...syncViewStrings.en, ...searchResultStrings.en, ...headerFormStrings.en, ...shortcutStrings.en };

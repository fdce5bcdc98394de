import { attachmentChipStringsZhCN } from './attachment-chip-strings.zh-CN';
import { findStringsZhCN } from './find-strings.zh-CN';
import { requestViewStringsZhCN } from './request-view-strings.zh-CN';
import { versionStringsZhCN } from './version-strings.zh-CN';
import { syncViewStringsZhCN } from './sync-view-strings.zh-CN';
import type { ViewsKey } from '../dictionary';
import { searchResultStringsZhCN } from './search-result-strings.zh-CN';
import { headerFormStringsZhCN } from './header-form-strings.zh-CN';
import { shortcutStringsZhCN } from './shortcut-strings.zh-CN';

/** The views' strings in Chinese, loaded with them when the UI speaks Chinese. A missing key fails the type check. */
export const viewsZhCN: Record<ViewsKey, string> = { ...requestViewStringsZhCN, ...findStringsZhCN, ...attachmentChipStringsZhCN, ...versionStringsZhCN, ...syncViewStringsZhCN, ...searchResultStringsZhCN, ...headerFormStringsZhCN, ...shortcutStringsZhCN };

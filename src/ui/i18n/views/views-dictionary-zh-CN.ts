import { attachmentChipStringsZhCN } from './attachment-chip-strings.zh-CN';
import { findStringsZhCN } from './find-strings.zh-CN';
import { requestViewStringsZhCN } from './request-view-strings.zh-CN';
import { versionStringsZhCN } from './version-strings.zh-CN';
import { syncViewStringsZhCN } from './sync-view-strings.zh-CN';
import type { ViewsKey } from '../dictionary';

/** The views' strings in Chinese, loaded with them when the UI speaks Chinese. A missing key fails the type check. */
export const viewsZhCN: Record<ViewsKey, string> = { ...requestViewStringsZhCN, ...findStringsZhCN, ...attachmentChipStringsZhCN, ...versionStringsZhCN, ...syncViewStringsZhCN };

import { attachmentStringsZhCN } from './chat/attachment-strings.zh-CN';
import { attentionStringsZhCN } from './shell/attention-strings.zh-CN';
import { baseStringsZhCN } from './shell/base-strings.zh-CN';
import { branchStringsZhCN } from './chat/branch-strings.zh-CN';
import { conversationSearchStringsZhCN } from './shell/conversation-search-strings.zh-CN';
import { questionStringsZhCN } from './chat/question-strings.zh-CN';
import { renderStringsZhCN } from './chat/render-strings.zh-CN';
import { requestStringsZhCN } from './chat/request-strings.zh-CN';
import { searchStringsZhCN } from './chat/search-strings.zh-CN';
import { syncStringsZhCN } from './shell/sync-strings.zh-CN';
import { toolStringsZhCN } from './chat/tool-strings.zh-CN';
import type { FirstScreenKey } from './dictionary';

/**
 * The page's UI strings in Chinese (Settings' are settings-dictionary-zh-CN.ts): a chunk of its own, loaded only when
 * the UI speaks Chinese (see setLocale), so an English first visit does not fetch it. Typed over every key of the
 * English it translates, so a key missing here fails the type check.
 */
export const zhCN: Record<FirstScreenKey, string> = { ...attentionStringsZhCN, ...baseStringsZhCN, ...branchStringsZhCN, ...conversationSearchStringsZhCN, ...questionStringsZhCN, ...renderStringsZhCN, ...requestStringsZhCN, ...searchStringsZhCN, ...toolStringsZhCN, ...syncStringsZhCN, ...attachmentStringsZhCN };

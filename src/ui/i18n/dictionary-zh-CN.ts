import { attachmentStringsZhCN } from './attachment-strings.zh-CN';
import { attentionStringsZhCN } from './attention-strings.zh-CN';
import { baseStringsZhCN } from './base-strings.zh-CN';
import { branchStringsZhCN } from './branch-strings.zh-CN';
import { conversationSearchStringsZhCN } from './conversation-search-strings.zh-CN';
import { dataStringsZhCN } from './data-strings.zh-CN';
import { errorDetailStringsZhCN } from './error-detail-strings.zh-CN';
import { errorStringsZhCN } from './error-strings.zh-CN';
import { localModelStringsZhCN } from './local-model-strings.zh-CN';
import { mcpStringsZhCN } from './mcp-strings.zh-CN';
import { questionStringsZhCN } from './question-strings.zh-CN';
import { renderStringsZhCN } from './render-strings.zh-CN';
import { requestStringsZhCN } from './request-strings.zh-CN';
import { searchStringsZhCN } from './search-strings.zh-CN';
import { settingsStringsZhCN } from './settings-strings.zh-CN';
import { syncStringsZhCN } from './sync-strings.zh-CN';
import { toolStringsZhCN } from './tool-strings.zh-CN';
import type { MessageKey } from './dictionary';

/**
 * Every UI string in Chinese: a chunk of its own, loaded only when the UI speaks Chinese (see loadLocale), so an
 * English first visit does not fetch it (issue 21.21). Typed over every key, so a key missing here fails the type check.
 */
export const zhCN: Record<MessageKey, string> = { ...attentionStringsZhCN, ...baseStringsZhCN, ...branchStringsZhCN, ...conversationSearchStringsZhCN, ...dataStringsZhCN, ...errorDetailStringsZhCN, ...errorStringsZhCN, ...localModelStringsZhCN, ...mcpStringsZhCN, ...questionStringsZhCN, ...renderStringsZhCN, ...requestStringsZhCN, ...searchStringsZhCN, ...settingsStringsZhCN, ...toolStringsZhCN, ...syncStringsZhCN, ...attachmentStringsZhCN };

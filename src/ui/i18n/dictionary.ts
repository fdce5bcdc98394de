import { attentionStrings } from './attention-strings';
import { baseStrings } from './base-strings';
import { branchStrings } from './branch-strings';
import { dataStrings } from './data-strings';
import { localModelStrings } from './local-model-strings';
import { mcpStrings } from './mcp-strings';
import { errorStrings } from './error-strings';
import { errorDetailStrings } from './error-detail-strings';
import { questionStrings } from './question-strings';
import { requestStrings } from './request-strings';
import { renderStrings } from './render-strings';
import { searchStrings } from './search-strings';
import { settingsStrings } from './settings-strings';
import { toolStrings } from './tool-strings';
import { conversationSearchStrings } from './conversation-search-strings';
import { syncStrings } from './sync-strings';
import type { Locale } from './translations';

export type { Locale };

const en = { ...baseStrings.en, ...dataStrings.en, ...searchStrings.en, ...mcpStrings.en, ...localModelStrings.en, ...questionStrings.en, ...errorStrings.en, ...errorDetailStrings.en, ...requestStrings.en, ...branchStrings.en, ...attentionStrings.en, ...settingsStrings.en, ...toolStrings.en, ...renderStrings.en, ...conversationSearchStrings.en, ...syncStrings.en };

/** Every key of every part: `t()` takes only these, so a misspelt or removed key fails the type check. */
export type MessageKey = keyof typeof en;

/**
 * Every UI string, by locale. Parts live beside the components that use them and are merged here; to add a part,
 * spread it into each language (a language left out fails the `Record<MessageKey, string>` below).
 */
export const dictionary: Record<Locale, Record<MessageKey, string>> = {
  en,
  'zh-CN': { ...baseStrings['zh-CN'], ...dataStrings['zh-CN'], ...searchStrings['zh-CN'], ...mcpStrings['zh-CN'], ...localModelStrings['zh-CN'], ...questionStrings['zh-CN'], ...errorStrings['zh-CN'], ...errorDetailStrings['zh-CN'], ...requestStrings['zh-CN'], ...branchStrings['zh-CN'], ...attentionStrings['zh-CN'], ...settingsStrings['zh-CN'], ...toolStrings['zh-CN'], ...renderStrings['zh-CN'], ...conversationSearchStrings['zh-CN'], ...syncStrings['zh-CN'] },
};

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
import { attachmentStrings } from './attachment-strings';
import type { Locale } from './translations';

export type { Locale };

const en = { ...baseStrings.en, ...dataStrings.en, ...searchStrings.en, ...mcpStrings.en, ...localModelStrings.en, ...questionStrings.en, ...errorStrings.en, ...errorDetailStrings.en, ...requestStrings.en, ...branchStrings.en, ...attentionStrings.en, ...settingsStrings.en, ...toolStrings.en, ...renderStrings.en, ...conversationSearchStrings.en, ...syncStrings.en, ...attachmentStrings.en };

/** Every key of every part: `t()` takes only these, so a misspelt or removed key fails the type check. */
export type MessageKey = keyof typeof en;

/**
 * The English strings: the reference, loaded with the page. Another language is a `Record<MessageKey, string>` in a
 * chunk of its own (dictionary-zh-CN.ts), loaded when the UI speaks it. Parts live beside the components that use them;
 * to add a part, spread it here and its translation into each language's dictionary.
 */
export const english: Record<MessageKey, string> = en;

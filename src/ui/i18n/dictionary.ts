import { attentionStrings } from './shell/attention-strings';
import { baseStrings } from './shell/base-strings';
import { branchStrings } from './chat/branch-strings';
import { errorStrings } from './shell/error-strings';
import { errorDetailStrings } from './chat/error-detail-strings';
import { questionStrings } from './chat/question-strings';
import { requestStrings } from './chat/request-strings';
import { renderStrings } from './chat/render-strings';
import { searchStrings } from './chat/search-strings';
import { toolStrings } from './chat/tool-strings';
import { conversationSearchStrings } from './shell/conversation-search-strings';
import { syncStrings } from './shell/sync-strings';
import { attachmentStrings } from './chat/attachment-strings';
import type { Locale } from './translations';
import type { settingsEnglish } from './settings/settings-dictionary';

export type { Locale };

const en = { ...baseStrings.en, ...searchStrings.en, ...questionStrings.en, ...errorStrings.en, ...errorDetailStrings.en, ...requestStrings.en, ...branchStrings.en, ...attentionStrings.en, ...toolStrings.en, ...renderStrings.en, ...conversationSearchStrings.en, ...syncStrings.en, ...attachmentStrings.en };

/** The keys of the strings loaded with the page: every screen but Settings. */
export type FirstScreenKey = keyof typeof en;
/** The keys of the strings Settings alone shows, loaded with its code (settings-dictionary.ts, `loadStrings`). */
export type SettingsKey = keyof typeof settingsEnglish;

/** Every key of every part: `t()` takes only these, so a misspelt or removed key fails the type check. */
export type MessageKey = FirstScreenKey | SettingsKey;

/**
 * The English strings loaded with the page: the reference. Settings' are a chunk of their own, loaded with Settings;
 * another language is a `Record<FirstScreenKey, string>` (dictionary-zh-CN.ts) and a `Record<SettingsKey, string>` in
 * chunks of their own, loaded when the UI speaks it. Parts live beside the components that use them; to add a part,
 * spread it here (or in settings-dictionary.ts when only Settings shows it) and its translation into each language's.
 */
export const english: Record<FirstScreenKey, string> = en;

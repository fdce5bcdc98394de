import { attentionStrings } from './attention-strings';
import { baseStrings } from './base-strings';
import { branchStrings } from './branch-strings';
import { errorStrings } from './error-strings';
import { errorDetailStrings } from './error-detail-strings';
import { questionStrings } from './question-strings';
import { requestStrings } from './request-strings';
import { renderStrings } from './render-strings';
import { searchStrings } from './search-strings';
import { toolStrings } from './tool-strings';
import { conversationSearchStrings } from './conversation-search-strings';
import { syncStrings } from './sync-strings';
import { attachmentStrings } from './attachment-strings';
import type { Locale } from './translations';
import type { settingsEnglish } from './settings-dictionary';

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

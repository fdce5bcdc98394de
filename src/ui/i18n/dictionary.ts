import { attentionStrings } from './shell/attention-strings';
import { baseStrings } from './shell/base-strings';
import { branchStrings } from './chat/branch-strings';
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
import type { viewsEnglish } from './views/views-dictionary';
import type { errorsEnglish } from './errors/errors-dictionary';

export type { Locale };

const en = { ...baseStrings.en, ...searchStrings.en, ...questionStrings.en, ...requestStrings.en, ...branchStrings.en, ...attentionStrings.en, ...toolStrings.en, ...renderStrings.en, ...conversationSearchStrings.en, ...syncStrings.en, ...attachmentStrings.en };

/** The keys of the strings loaded with the page: every screen but Settings, every view but those that load on use, no error's. */
export type FirstScreenKey = keyof typeof en;
/** The keys of the strings Settings alone shows, loaded with its code (settings-dictionary.ts, `loadStrings`). */
export type SettingsKey = keyof typeof settingsEnglish;
/** The keys of the views that load on use (views-dictionary.ts), loaded with their code. */
export type ViewsKey = keyof typeof viewsEnglish;
/** The keys of an error's words (errors-dictionary.ts), loaded with the first error shown. */
export type ErrorsKey = keyof typeof errorsEnglish;

/** Every key of every part: `t()` takes only these, so a misspelt or removed key fails the type check. */
export type MessageKey = FirstScreenKey | SettingsKey | ViewsKey | ErrorsKey;

/**
 * The English strings loaded with the page: the reference. Settings', the views' that load on use and an error's are
 * chunks of their own, loaded with their code; another language is a `Record<FirstScreenKey, string>` (dictionary-zh-CN.ts), a
 * `Record<SettingsKey, string>` and a `Record<ViewsKey, string>` in chunks of their own, loaded when the UI speaks it.
 * Parts live beside the components that use them; to add a part, spread it here (or in settings-dictionary.ts when
 * only Settings shows it, views-dictionary.ts when only a view that loads on use does, errors-dictionary.ts when only
 * an error's words do) and its translation into
 * each language's.
 */
export const english: Record<FirstScreenKey, string> = en;

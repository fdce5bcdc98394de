import { baseStrings } from './base-strings';
import { questionStrings } from './question-strings';
import { requestStrings } from './request-strings';

export type Locale = 'en' | 'zh-CN';

/** Every UI string, by locale. Parts live beside the components that use them and are merged here. */
export const dictionary: Record<Locale, Record<string, string>> = {
  en: { ...baseStrings.en, ...questionStrings.en, ...requestStrings.en },
  'zh-CN': { ...baseStrings['zh-CN'], ...questionStrings['zh-CN'], ...requestStrings['zh-CN'] },
};

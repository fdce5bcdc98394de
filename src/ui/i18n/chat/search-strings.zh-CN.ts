import type { searchStrings } from './search-strings';

/** Chinese for search-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const searchStringsZhCN: Record<keyof (typeof searchStrings)['en'], string> = {
  'search.open': '在对话中查找',
};

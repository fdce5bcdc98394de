import type { conversationSearchStrings } from './conversation-search-strings';

/** Chinese for conversation-search-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const conversationSearchStringsZhCN: Record<keyof (typeof conversationSearchStrings)['en'], string> = {
  'conversationSearch.label': '搜索对话',
};

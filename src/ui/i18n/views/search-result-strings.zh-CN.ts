import type { searchResultStrings } from './search-result-strings';

/** Chinese for search-result-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const searchResultStringsZhCN: Record<keyof (typeof searchResultStrings)['en'], string> = {
  'conversationSearch.results': '匹配的对话',
  'conversationSearch.none': '没有匹配的对话',
  'conversationSearch.matchingOne': '{count} 条匹配的消息',
  'conversationSearch.matching': '{count} 条匹配的消息',
};

import type { Translations } from './translations';

/** Search across conversations (ConversationSearch): the searchbox above the conversation list and its results. */
const en = {
  'conversationSearch.label': 'Search conversations',
  'conversationSearch.results': 'Matching conversations',
  'conversationSearch.none': 'No conversations match',
};

const zhCN: Record<keyof typeof en, string> = {
  'conversationSearch.label': '搜索对话',
  'conversationSearch.results': '匹配的对话',
  'conversationSearch.none': '没有匹配的对话',
};

export const conversationSearchStrings = { en, 'zh-CN': zhCN } satisfies Translations<keyof typeof en>;

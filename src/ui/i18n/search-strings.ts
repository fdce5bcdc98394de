import type { Translations } from './translations';

/** Find in conversation (MessageSearch): the app's own search, since a long conversation is not all in the page. */
const en = {
  'search.open': 'Find in conversation',
  'search.label': 'Find in conversation',
  'search.placeholder': 'Find in conversation',
  'search.none': 'No matches',
  'search.position': '{current} of {total}',
  'search.older': 'Older match',
  'search.newer': 'Newer match',
  'search.close': 'Close search',
};

const zhCN: Record<keyof typeof en, string> = {
  'search.open': '在对话中查找',
  'search.label': '在对话中查找',
  'search.placeholder': '在对话中查找',
  'search.none': '没有匹配',
  'search.position': '第 {current} 个，共 {total} 个',
  'search.older': '上一个（更早）',
  'search.newer': '下一个（更新）',
  'search.close': '关闭查找',
};

export const searchStrings = { en, 'zh-CN': zhCN } satisfies Translations<keyof typeof en>;

import type { findStrings } from './find-strings';

/** Chinese for find-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const findStringsZhCN: Record<keyof (typeof findStrings)['en'], string> = {
  'search.label': '在对话中查找',
  'search.placeholder': '在对话中查找',
  'search.none': '没有匹配',
  'search.position': '第 {current} 个，共 {total} 个',
  'search.older': '上一个（更早）',
  'search.newer': '下一个（更新）',
  'search.close': '关闭查找',
};

import type { renderStrings } from './render-strings';

/** Chinese for render-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const renderStringsZhCN: Record<keyof (typeof renderStrings)['en'], string> = {
  'markdown.taskDone': '已完成',
  'markdown.taskOpen': '未完成',
  'code.copy': '复制代码',
  'code.copied': '已复制',
  'code.plainTooLong': '未着色显示：这段代码太长（{lines} 行，{characters} 个字符）。',
  'code.plainLongLine': '未着色显示：这段代码中有一行太长。',
  'code.plainFailed': '未着色显示：高亮程序无法读取这段代码。',
  'maths.failed': '无法显示这段公式（{reason}）；上方是它的源码。',
  'maths.tooLong': '这段公式太长，无法排版（{characters} 个字符）；上方是它的源码。',
  'maths.unavailable': '无法加载公式排版；显示的是源码。',
  'actions.copy': '复制',
  'actions.copied': '已复制',
  'actions.copyFailed': '无法复制：浏览器拒绝访问剪贴板。',
};

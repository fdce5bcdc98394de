import type { Translations } from './translations';

/** Code blocks, maths, task lists and the actions under each message. */
const en = {
  'markdown.taskDone': 'Done',
  'markdown.taskOpen': 'Not done',
  'code.copy': 'Copy code',
  'code.copied': 'Copied',
  'code.plainTooLong': 'Shown without colours: this code is too long to colour ({lines} lines, {characters} characters).',
  'code.plainLongLine': 'Shown without colours: a line of this code is too long to colour.',
  'code.plainFailed': 'Shown without colours: the highlighter could not read this code.',
  'maths.failed': 'This maths could not be shown ({reason}); its source is above.',
  'maths.tooLong': 'This maths is too long to typeset ({characters} characters); its source is above.',
  'maths.unavailable': 'Maths could not be loaded; its source is shown.',
  'actions.copy': 'Copy',
  'actions.copied': 'Copied',
  'actions.copyFailed': 'Could not copy: the browser refused access to the clipboard.',
};

const zhCN: Record<keyof typeof en, string> = {
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

export const renderStrings = { en, 'zh-CN': zhCN } satisfies Translations<keyof typeof en>;

import type { attentionStrings } from './attention-strings';

/** Chinese for attention-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const attentionStringsZhCN: Record<keyof (typeof attentionStrings)['en'], string> = {
  'notify.question': 'Parley 在等你回答',
  'notify.approval': 'Parley 在等你批准',
  'notify.elicitation': 'Parley 在等你填写表单',
  'keys.title': '键盘快捷键',
  'keys.close': '关闭',
  'chat.exportMarkdown': '导出为 Markdown',
  'settings.theme.system': '跟随系统',
  'settings.theme.light': '浅色',
  'settings.theme.dark': '深色',
  'chat.instructionsButton': '对话指令',
};

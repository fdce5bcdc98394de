import type { attentionStrings } from './attention-strings';

/** Chinese for attention-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const attentionStringsZhCN: Record<keyof (typeof attentionStrings)['en'], string> = {
  'notify.question': 'Parley 在等你回答',
  'notify.approval': 'Parley 在等你批准',
  'notify.elicitation': 'Parley 在等你填写表单',
  'keys.title': '键盘快捷键',
  'keys.newConversation': '新建对话',
  'keys.focusComposer': '写消息（聚焦输入框）',
  'keys.stop': '停止正在写的回复',
  'keys.help': '显示这些快捷键',
  'keys.close': '关闭',
  'chat.exportMarkdown': '导出为 Markdown',
  'settings.theme.system': '跟随系统',
  'settings.theme.light': '浅色',
  'settings.theme.dark': '深色',
  'chat.instructionsButton': '对话指令',
  'chat.instructions': '此对话的指令',
  'chat.instructionsHint': '仅在此对话中代替配置的指令。留空则使用配置的指令。',
  'chat.instructionsSave': '保存指令',
  'chat.instructionsSaved': '指令已保存。',
};

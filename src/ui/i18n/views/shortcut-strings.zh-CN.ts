import type { shortcutStrings } from './shortcut-strings';

/** Chinese for shortcut-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const shortcutStringsZhCN: Record<keyof (typeof shortcutStrings)['en'], string> = {
  'keys.newConversation': '新建对话',
  'keys.focusComposer': '写消息（聚焦输入框）',
  'keys.stop': '停止正在写的回复',
  'keys.help': '显示这些快捷键',
};

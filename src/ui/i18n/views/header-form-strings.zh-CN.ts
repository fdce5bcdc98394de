import type { headerFormStrings } from './header-form-strings';

/** Chinese for header-form-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const headerFormStringsZhCN: Record<keyof (typeof headerFormStrings)['en'], string> = {
  'chat.titleField': '对话标题',
  'chat.saveTitle': '保存标题',
  'chat.instructions': '此对话的指令',
  'chat.instructionsHint': '仅在此对话中代替配置的指令。留空则使用配置的指令。',
  'chat.instructionsSave': '保存指令',
  'chat.instructionsSaved': '指令已保存。',
};

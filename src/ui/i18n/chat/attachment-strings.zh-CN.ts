import type { attachmentStrings } from './attachment-strings';

/** Chinese for attachment-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const attachmentStringsZhCN: Record<keyof (typeof attachmentStrings)['en'], string> = {
  'attach.button': '添加文件',
  'attach.drop': '将文件拖放到此处以添加',
  'attach.sent': '随此消息发送的文件',
  'attach.size.bytes': '{size} 字节',
  'attach.size.byte': '{size} 字节',
  'attach.size.kb': '{size} KB',
  'attach.size.mb': '{size} MB',
  'attach.dismiss': '关闭',
};

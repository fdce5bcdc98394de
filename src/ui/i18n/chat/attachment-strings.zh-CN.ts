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
  'error.reason.attachment_unsupported': '无法发送“{name}”：它既不是图片也不是文本文件。没有发送任何内容。',
  'error.reason.attachment_too_large': '“{name}”太大，无法发送。没有发送任何内容。',
  'error.reason.attachment_too_many': '每条消息最多附带 {limit} 个文件。没有发送任何内容。',
  'error.reason.images_not_accepted': '此模型不接受图片，因此无法向它发送“{name}”。没有发送任何内容。',
  'error.reason.attachments_over_quota': '这些文件超出了此浏览器允许 Parley 使用的空间。没有发送任何内容；请在“设置 → 你的数据”中删除旧对话，或添加更小的文件。',
  'error.reason.attachment_gone': '此文件已不再保存。',
  'error.reason.attachment_syncing': '此文件尚未到达此设备：仍在同步中。',
  'error.reason.message_empty': '请先输入消息或添加文件。',
  'settings.acceptsImages': '接受图片',
  'settings.acceptsImagesHint': '你添加的图片会发送给此模型。若模型只能读取文本，请关闭此项：Parley 会在发送前告诉你。',
};

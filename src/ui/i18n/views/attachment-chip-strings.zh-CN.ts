import type { attachmentChipStrings } from './attachment-chip-strings';

/** Chinese for attachment-chip-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const attachmentChipStringsZhCN: Record<keyof (typeof attachmentChipStrings)['en'], string> = {
  'attach.remove': '移除附件',
  'attach.list': '附件',
  'attach.refused.unsupported_type': '未添加“{name}”：Parley 只能发送图片（PNG、JPEG、GIF、WebP）和文本文件（代码、Markdown、CSV、JSON、纯文本），不能发送这类文件。',
  'attach.refused.too_large': '未添加“{name}”：它有 {size}，这类文件的上限是 {limit}。',
  'attach.refused.too_many': '每条消息最多附带 {limit} 个文件，其余文件未添加。',
  'attach.refused.images_not_accepted': '未添加“{name}”：此模型不接受图片。请选择接受图片的模型配置，或只发送文本文件。',
  'attach.refused.unsupported_type.many': '未添加{names}：Parley 只能发送图片（PNG、JPEG、GIF、WebP）和文本文件（代码、Markdown、CSV、JSON、纯文本），不能发送这些类型的文件。',
  'attach.refused.too_large.many': '未添加{names}：每个都超过了这类文件的上限 {limit}。',
  'attach.refused.images_not_accepted.many': '未添加{names}：此模型不接受图片。请选择接受图片的模型配置，或只发送文本文件。',
  'attach.view': '查看 {name}',
  'attach.syncing.image': '图片尚未到达此设备——仍在同步中',
  'attach.syncing.file': '文件尚未到达此设备——仍在同步中',
  'attach.unsaved.image': '图片未能保存到此设备——浏览器存储空间已满',
  'attach.unsaved.file': '文件未能保存到此设备——浏览器存储空间已满',
};

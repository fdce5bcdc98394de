import type { importErrorStrings } from './import-error-strings';

/** Chinese for import-error-strings (loaded with Settings when the UI speaks Chinese, see settings-dictionary-zh-CN.ts). */
export const importErrorStringsZhCN: Record<keyof (typeof importErrorStrings)['en'], string> = {
  'error.reason.import_not_export': '这不是 Parley 导出文件（问题出在“{field}”）。未导入任何内容。',
  'error.importNotExportFile': '这不是 Parley 导出文件。未导入任何内容。',
  'error.reason.import_inconsistent': '导出文件前后不一致：第 {conversation} 个对话的消息不属于它，或位置重复。未导入任何内容。',
  'error.reason.duplicate_message_id': '无法导入该导出文件：第 {conversation} 个对话的第 {message} 条消息与另一条消息的 ID 相同。未导入任何内容。',
  'error.reason.unsafe_data': '无法导入该导出文件：第 {conversation} 个对话第 {message} 条消息中，{part}不是普通 JSON、嵌套过深或者过大。未导入任何内容。',
  'error.importPart.arguments': '工具调用的参数',
  'error.importPart.original_arguments': '工具调用的原始参数',
  'error.importPart.input_schema': '工具调用的输入模式',
  'error.importPart.requested_schema': '工具要求填写的表单',
  'error.importPart.form_content': '对工具表单的回答',
  'error.importPart.unknown': '某个字段',
  'data.importNotJson': '该文件不是 JSON，未导入任何内容。',
  'error.reason.import_attachment_mismatch': '无法导入此导出文件：在第 {conversation} 个对话中，某条消息附带的文件缺失、不属于任何消息、是 Parley 不会发送的类型，或大小与消息所记录的不符。没有导入任何内容。',
};

import type { requestStrings } from './request-strings';

/** Chinese for request-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const requestStringsZhCN: Record<keyof (typeof requestStrings)['en'], string> = {
  'request.alreadyResolved': '这已经在其他标签页中处理过了。',
  'block.unknown': '这部分消息（{kind}）来自更新版本的 Parley，这里无法显示。',
  'inbox.approval': '允许 {tool}？',
  'inbox.rerun': '再次运行 {tool}？',
  'waiting.approvalBadge': '有待批准的调用',
  'waiting.approvalStatus': '等待你批准',
  'waiting.approvalHint': '上方有一个工具调用在等你。可以在那里允许或拒绝，也可以直接在这里输入回复。',
  'waiting.formBadge': '有待填写的表单',
  'waiting.formStatus': '等待你填写表单',
  'waiting.formHint': '上方有一个服务器的表单在等你。请在那里提交、拒绝或取消，或者点击“停止”。',
};

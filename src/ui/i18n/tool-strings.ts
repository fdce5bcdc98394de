/**
 * Strings of a tool call's card beyond the request controls: what a permission did to a call (ran without asking, not
 * run because of "Never"), the way to that permission in Settings, a call's progress, and a cut-off call.
 */
const en = {
  'tool.status.notRun': 'Not run',
  'tool.never': 'You set this tool to Never.',
  'tool.allowed.ran': 'Ran without asking — Always allow',
  'tool.allowed.running': 'Running without asking — Always allow',
  'tool.changePermission': 'Change permission',
  'tool.changePermissionOf': 'Change permission of {name}',
  'tool.progress': 'Progress of {name}',
  'tool.progressStep': '{progress} of {total}',
  'tool.interruptedNote': 'It was cut off while it ran, so it may or may not have run.',
} as const;

export type ToolStringKey = keyof typeof en;

const zhCN: Record<ToolStringKey, string> = {
  'tool.status.notRun': '未运行',
  'tool.never': '你已将此工具设为“从不”。',
  'tool.allowed.ran': '未询问即运行——始终允许',
  'tool.allowed.running': '正在运行，未询问——始终允许',
  'tool.changePermission': '更改权限',
  'tool.changePermissionOf': '更改 {name} 的权限',
  'tool.progress': '{name} 的进度',
  'tool.progressStep': '{progress} / {total}',
  'tool.interruptedNote': '它在运行时被中断，可能已经运行，也可能没有。',
};

export const toolStrings = { en, 'zh-CN': zhCN };

import type { toolStrings } from './tool-strings';

/** Chinese for tool-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const toolStringsZhCN: Record<keyof (typeof toolStrings)['en'], string> = {
  'tool.status.pending': '排队中',
  'tool.status.running': '运行中…',
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

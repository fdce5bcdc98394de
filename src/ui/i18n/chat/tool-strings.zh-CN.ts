import type { toolStrings } from './tool-strings';

/** Chinese for tool-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const toolStringsZhCN: Record<keyof (typeof toolStrings)['en'], string> = {
  'tool.status.pending': '排队中',
  'tool.status.running': '运行中…',
};

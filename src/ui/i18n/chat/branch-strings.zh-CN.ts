import type { branchStrings } from './branch-strings';

/** Chinese for branch-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const branchStringsZhCN: Record<keyof (typeof branchStrings)['en'], string> = {
  'message.actions': '消息操作',
  'branch.regenerate': '重新生成',
  'branch.edit': '编辑',
};

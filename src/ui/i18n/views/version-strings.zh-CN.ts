import type { versionStrings } from './version-strings';

/** Chinese for version-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const versionStringsZhCN: Record<keyof (typeof versionStrings)['en'], string> = {
  'branch.versions': '版本',
  'branch.previous': '上一个版本',
  'branch.next': '下一个版本',
  'branch.position': '第 {index} 个，共 {count} 个',
  'branch.editBox': '编辑消息',
  'branch.send': '发送',
  'branch.cancel': '取消',
  'branch.leaveTitle': '要离开等待中的请求吗？',
  'branch.leaveConfirm': '离开',
  'branch.leaveBody': '此分支后面有一个等待你处理的请求。离开此分支会关闭该请求。',
  'branch.delete': '删除此版本',
  'branch.deleteTitle': '删除此版本？',
  'branch.deleteBody': '此版本及其分支中之后的所有内容都会被删除。其他版本保留。',
};

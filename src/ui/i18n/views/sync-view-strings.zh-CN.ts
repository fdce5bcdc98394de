import type { syncViewStrings } from './sync-view-strings';

/** Chinese for sync-view-strings (loaded only when the UI speaks Chinese, see views-dictionary-zh-CN.ts). */
export const syncViewStringsZhCN: Record<keyof (typeof syncViewStrings)['en'], string> = {
  'sync.keyNeeded': '这个配置来自另一台设备；在这里输入它的 API 密钥即可使用。没有发送任何内容。',
  'sync.keyFor': '{name} 的 API 密钥',
  'sync.useKey': '使用这个密钥',
  'sync.runsOn': '在 {device} 上运行',
  'sync.otherTitles': '也曾命名为：',
  'sync.useOtherTitle': '使用“{title}”',
  'sync.runsOnUnnamed': '在另一台设备上运行',
  'sync.continueHere': '在此设备上继续',
  'sync.decidedOn': '已在 {device} 上决定',
};

import type { settingsStrings } from './settings-strings';

/** Chinese for settings-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const settingsStringsZhCN: Record<keyof (typeof settingsStrings)['en'], string> = {
  'test.rateLimitedWait': '服务器正在限制请求频率（HTTP 429）。请在 {seconds} 秒后重试。',
  'test.rateLimited': '服务器正在限制请求频率（HTTP 429）。请一分钟后重试。',
  'settings.newProfile': '新配置',
  'settings.restoreScript': '恢复演示脚本',
  'settings.newConversationsUse': '新对话将使用 {name}。',
  'settings.urlNotFetchable': '无法下载此模型 URL：请使用以 https://（或 http://）开头的地址。',
  'settings.urlRewritten': '已将 Hugging Face 页面地址（/blob/）改为下载地址（/resolve/）。',
  'settings.urlSize': '下载大小：{size}。',
  'settings.urlSizeUnknown': '服务器没有说明这个文件有多大。',
};

import type { Translations } from './translations';

/** Settings → the profile form (issue 21): what the form edits, which profile new conversations use, URL checks. */
const settingsEn = {
  'test.rateLimitedWait': 'The server is limiting requests (HTTP 429). Try again in {seconds} s.',
  'test.rateLimited': 'The server is limiting requests (HTTP 429). Try again in a minute.',
  'settings.newProfile': 'New profile',
  'settings.restoreScript': 'Restore the demo script',
  'settings.newConversationsUse': 'New conversations will use {name}.',
  'settings.urlNotFetchable': 'This Model URL cannot be downloaded: use an address that starts with https:// (or http://).',
  'settings.urlRewritten': 'Changed the Hugging Face page address (/blob/) to its download address (/resolve/).',
  'settings.urlSize': 'Download size: {size}.',
  'settings.urlSizeUnknown': 'The server did not say how big this file is.',
} as const;

const settingsZhCN: Record<keyof typeof settingsEn, string> = {
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

export const settingsStrings = { en: settingsEn, 'zh-CN': settingsZhCN } satisfies Translations<keyof typeof settingsEn>;

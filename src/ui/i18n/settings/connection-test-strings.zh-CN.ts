import type { connectionTestStrings } from './connection-test-strings';

/** Chinese for connection-test-strings (loaded with Settings when the UI speaks Chinese, see settings-dictionary-zh-CN.ts). */
export const connectionTestStringsZhCN: Record<keyof (typeof connectionTestStrings)['en'], string> = {
  'test.connectedOne': '连接成功。有 1 个可用模型。',
  'test.connectedMany': '连接成功。有 {count} 个可用模型。',
  'test.connectedOneModelMissing': '连接成功。有 1 个可用模型。模型“{model}”不在其中：请检查它的名称。',
  'test.connectedManyModelMissing': '连接成功。有 {count} 个可用模型。模型“{model}”不在其中：请检查它的名称。',
  'test.scripted': '脚本模型在本应用内运行，无需连接。',
  'test.in_browser': '浏览器内模型在本设备上运行，下载后无需连接。',
  'test.missing_settings': '请先填写缺少的设置（基础 URL；Anthropic 还需要 API 密钥）。',
  'test.timeout': '服务器在 {seconds} 秒内没有响应。',
  'test.models_not_found': '未找到模型列表（HTTP 404）。请检查基础 URL：OpenAI 兼容的服务器通常以 /v1 结尾，Anthropic 的是 https://api.anthropic.com/v1。',
  'test.not_a_model_list': '服务器有响应，但返回的不是模型列表。请检查基础 URL。',
  'test.rateLimitedWait': '服务器正在限制请求频率（HTTP 429）。请在 {seconds} 秒后重试。',
  'test.rateLimited': '服务器正在限制请求频率（HTTP 429）。请一分钟后重试。',
};

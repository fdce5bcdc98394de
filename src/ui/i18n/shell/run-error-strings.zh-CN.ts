import type { runErrorStrings } from './run-error-strings';

/** Chinese for run-error-strings (loaded only when the UI speaks Chinese, see errors-dictionary-zh-CN.ts). */
export const runErrorStringsZhCN: Record<keyof (typeof runErrorStrings)['en'], string> = {
  'runError.auth': 'API 密钥被拒绝。请在此配置的设置中检查密钥，并确认它有权使用该模型。',
  'runError.not_found': '服务器返回 404 Not Found：该模型在那里可能不存在，或者基础 URL 有误（OpenAI 兼容的服务器通常以 /v1 结尾）。',
  'runError.rate_limited': '提供方正在限制请求频率（请求过多过快）。请稍等片刻，然后点击“继续”。',
  'runError.server': '提供方的服务器出错了。请稍后再试。',
  'runError.network': '无法连接模型提供方。请检查基础 URL、服务器是否在运行，以及你的网络连接。',
  'runError.cors': '服务器有响应，但不允许来自本应用的请求（CORS）。请在服务器设置中允许本应用的来源；详细信息中说明了需要修改什么。',
  'runError.bad_stream': '回复的数据流中途中断或格式有误。点击“继续”从中断处接着写。',
  'runError.bad_request': '提供方拒绝了该请求。',
  'runError.context_too_small': '该模型的上下文太小，连一条消息都放不下。请在设置中选择上下文更大的模型。',
  'runError.config': '这个模型配置目前无法使用。请打开设置进行修正。',
  'runError.key_needed': '这台设备上需要这个配置的 API 密钥。',
  'runError.profile_gone': '这个对话的模型配置已被删除。请在上方为它选择一个模型配置以继续；没有发送任何内容。',
  'runError.images_not_accepted': '此模型不接受图片，而这个对话中含有图片。请选择接受图片的模型配置，或编辑该消息，不带图片重新发送。',
  'runError.step_limit': '模型连续执行的步骤过多，已停止。发送一条消息即可继续。',
  'runError.invalid_questions': '模型连续发出了多个无效的问题，因此已停止运行。发送一条消息即可继续。',
};

import type { errorStrings } from './error-strings';

/** Chinese for error-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const errorStringsZhCN: Record<keyof (typeof errorStrings)['en'], string> = {
  'error.details': '详细信息',

  'error.reason.scripted_profile_builtin': '内置演示配置不能修改；请改为编辑它的脚本。',
  'error.reason.scripted_profile_undeletable': '内置演示配置不能删除。',
  'error.reason.base_url_scheme': '基础 URL 必须以 http:// 或 https:// 开头。',
  'error.reason.malformed_command': 'Parley 内部发出了一个无法识别的请求。请重新加载页面后再试。',
  'error.reason.conversation_gone': '这个对话已不存在，可能已在另一个标签页中被删除。',
  'error.reason.message_gone': '该消息已不存在，可能已在另一个标签页中被删除。',
  'error.reason.question_gone': '该问题已不存在，可能已在另一个标签页中被删除。',
  'error.reason.profile_gone': '该模型配置已不存在，请选择另一个。',
  'error.reason.run_in_other_tab': '另一个标签页仍在写回复。请先停止它，或等它写完。',
  'error.reason.run_in_progress': '回复仍在写入中。请先停止它，或等它写完。',
  'error.reason.nothing_to_continue': '这个对话中没有可以继续的内容。',
  'error.reason.answer_count': '答案与问题不符（{expected} 个问题，收到 {got} 个答案）。请重新加载页面后再回答。',
  'error.reason.answer_unknown_option': '“{option}”不是“{question}”的选项。',
  'error.reason.answer_no_free_text': '“{question}”不接受自行输入的答案：请从它的选项中选择。',
  'error.reason.answer_single_only': '“{question}”只能选一个答案。',
  'error.reason.answer_nothing': '请至少回答一个问题，或忽略这些问题。',
  'error.reason.save_failed': '保存失败，没有做任何更改。请重试，或重新加载页面。',
  'error.reason.request_gone': '这个请求已不存在，可能已在其他标签页中被删除。',
  'error.reason.arguments_invalid': '这些参数不符合 {tool} 的要求，因此什么都没有运行。请修改后再次点击“允许”。',
  'error.reason.form_invalid': '回答不符合 {server} 的要求。请修改字段后重新提交。',
  'error.reason.elicitation_dead': '提出这个问题的工具已经停止（等待期间应用被关闭或重新加载），无法再接收回答。',
  'error.reason.elicitation_pending': '上方有一个工具正在等待你的回答。请先提交、拒绝或取消它，或者点击“停止”。',
  'error.reason.draft_not_question': '只有问题才会保存草稿。',
  'error.reason.profile_no_model': '请选择此配置使用的模型：点击“测试连接”可列出服务器上的模型。',
  'error.reason.server_name_taken': '名为“{name}”的服务器已在使用工具名 {prefix}…；请给这个服务器另起一个名字。',
  'error.storageFullUsage': '浏览器存储空间已满：本浏览器允许 Parley 使用 {quota} MB，已用 {used} MB。请删除不再需要的对话（如需保留，请先在“设置 → 你的数据”中导出）。',

  'storage.databaseClosed': '浏览器关闭了 Parley 的数据库。请重新加载页面。',
  'storage.openFailed': 'Parley 无法打开它的存储。请重新加载页面；如果问题仍然存在，请检查是否允许此网站存储数据。',
};

import type { Translations } from './translations';

/**
 * What went wrong, worded from the codes the worker sends (`error.reason.*` from a WireError's reason, `runError.*`
 * from a run's or an error block's code, `test.*` from a connection test). `{name}` marks a parameter.
 */
const en = {
  'error.details': 'Details',

  'error.reason.import_not_export': 'This is not a Parley export file (the problem is at “{field}”). Nothing was imported.',
  'error.importNotExportFile': 'This is not a Parley export file. Nothing was imported.',
  'error.reason.import_inconsistent':
    'The export file is inconsistent: the messages of conversation {conversation} do not belong to it or repeat a position. Nothing was imported.',
  'error.reason.duplicate_message_id':
    'The export file cannot be imported: message {message} of conversation {conversation} has the same id as another message. Nothing was imported.',
  'error.reason.unsafe_data':
    'The export file cannot be imported: in message {message} of conversation {conversation}, {part} is not plain JSON, is nested too deeply or is too large. Nothing was imported.',
  'error.importPart.arguments': 'the arguments of a tool call',
  'error.importPart.original_arguments': 'the original arguments of a tool call',
  'error.importPart.input_schema': 'the input schema of a tool call',
  'error.importPart.requested_schema': 'the form a tool asked to be filled in',
  'error.importPart.form_content': 'the answer to a tool’s form',
  'error.importPart.unknown': 'a field',
  'error.reason.scripted_profile_builtin': 'The built-in demo profile cannot be changed; edit its script instead.',
  'error.reason.scripted_profile_undeletable': 'The built-in demo profile cannot be deleted.',
  'error.reason.base_url_scheme': 'The base URL must start with http:// or https://.',
  'error.reason.malformed_command': 'Parley sent itself a request it could not read. Reload the page and try again.',
  'error.reason.conversation_gone': 'This conversation no longer exists. It may have been deleted in another tab.',
  'error.reason.message_gone': 'That message no longer exists. It may have been deleted in another tab.',
  'error.reason.question_gone': 'That question no longer exists. It may have been deleted in another tab.',
  'error.reason.profile_gone': 'That model profile no longer exists. Choose another one.',
  'error.reason.run_in_other_tab': 'A reply is still being written in another tab. Stop it first, or wait for it to finish.',
  'error.reason.run_in_progress': 'A reply is still being written. Stop it first, or wait for it to finish.',
  'error.reason.nothing_to_continue': 'There is nothing to continue in this conversation.',
  'error.reason.answer_count': 'The answers do not match the questions ({got} answers for {expected} questions). Reload the page and answer again.',
  'error.reason.answer_unknown_option': '“{option}” is not an option of “{question}”.',
  'error.reason.answer_no_free_text': '“{question}” does not take an answer of your own: choose one of its options.',
  'error.reason.answer_single_only': '“{question}” takes a single answer.',
  'error.reason.answer_nothing': 'Answer at least one question, or dismiss the questions.',
  'error.reason.save_failed': 'Saving failed, so nothing was changed. Try again, or reload the page.',
  'error.reason.request_gone': 'This request no longer exists here. It may have been deleted in another tab.',
  'error.reason.arguments_invalid': 'These arguments do not fit what {tool} accepts, so nothing ran. Correct them and press Allow again.',
  'error.reason.form_invalid': 'The answer does not fit what {server} asked for. Correct the fields and submit again.',
  'error.reason.elicitation_dead': 'The tool that asked this has stopped (the app was closed or reloaded while it waited), so it can no longer receive an answer.',
  'error.reason.elicitation_pending': 'A tool is waiting for your answer in the form above. Submit, decline or cancel it first, or press Stop.',
  'error.reason.draft_not_question': 'Only a question keeps a draft.',
  'error.storageFullUsage':
    'The browser storage is full: Parley uses {used} MB of the {quota} MB this browser allows it. Delete conversations you no longer need (export them first in Settings → Your data to keep a copy).',

  'storage.databaseClosed': 'The browser closed Parley’s database. Reload the page.',
  'storage.openFailed': 'Parley could not open its storage. Reload the page; if it keeps happening, check that this site may store data.',

  'runError.auth': 'The API key was rejected. Check the key in this profile’s settings, and that it may use this model.',
  'runError.not_found':
    'The server answered 404 Not Found: the model may not exist there, or the base URL is wrong (OpenAI-compatible servers usually end in /v1).',
  'runError.rate_limited': 'The provider is limiting requests (too many, too fast). Wait a little, then use Continue.',
  'runError.server': 'The provider had a server error. Try again in a moment.',
  'runError.network': 'The model provider cannot be reached. Check the base URL, that the server is running, and your connection.',
  'runError.cors':
    'The server answered, but it does not allow requests from this app (CORS). Allow this app’s origin in the server’s settings; the details say what to change.',
  'runError.bad_stream': 'The answer stream stopped in the middle or was malformed. Use Continue to pick up where it stopped.',
  'runError.bad_request': 'The provider rejected the request.',
  'runError.config': 'This model profile cannot be used as it is. Open Settings to fix it.',
  'runError.profile_gone': 'This conversation’s model profile was deleted. Choose a model profile for it above to continue; nothing was sent.',
  'runError.step_limit': 'Stopped after too many model steps in a row. Write a message to go on.',
  'runError.invalid_questions': 'The model sent several invalid questions in a row, so the run was stopped. Write a message to go on.',

  'notice.serverUnreachable': 'The model server cannot be reached; Parley tries again by itself.',
  'notice.retryingSoon': 'Retrying soon…',

  'test.connectedOne': 'Connected. 1 model available.',
  'test.connectedMany': 'Connected. {count} models available.',
  'test.connectedOneModelMissing': 'Connected. 1 model available. The model “{model}” is not among them: check its name.',
  'test.connectedManyModelMissing': 'Connected. {count} models available. The model “{model}” is not among them: check its name.',
  'test.scripted': 'The scripted model runs in this app and needs no connection.',
  'test.in_browser': 'The in-browser model runs on this device and needs no connection once it is downloaded.',
  'test.missing_settings': 'Fill in the missing settings first (the base URL, and for Anthropic the API key).',
  'test.timeout': 'The server did not answer within {seconds} s.',
  'test.models_not_found':
    'The model list was not found (HTTP 404). Check the base URL: OpenAI-compatible servers usually end in /v1, Anthropic’s is https://api.anthropic.com/v1.',
  'test.not_a_model_list': 'The server answered, but not with a model list. Check the base URL.',
};

const zhCN: Record<keyof typeof en, string> = {
  'error.details': '详细信息',

  'error.reason.import_not_export': '这不是 Parley 导出文件（问题出在“{field}”）。未导入任何内容。',
  'error.importNotExportFile': '这不是 Parley 导出文件。未导入任何内容。',
  'error.reason.import_inconsistent': '导出文件前后不一致：第 {conversation} 个对话的消息不属于它，或位置重复。未导入任何内容。',
  'error.reason.duplicate_message_id': '无法导入该导出文件：第 {conversation} 个对话的第 {message} 条消息与另一条消息的 ID 相同。未导入任何内容。',
  'error.reason.unsafe_data': '无法导入该导出文件：第 {conversation} 个对话第 {message} 条消息中，{part}不是普通 JSON、嵌套过深或者过大。未导入任何内容。',
  'error.importPart.arguments': '工具调用的参数',
  'error.importPart.original_arguments': '工具调用的原始参数',
  'error.importPart.input_schema': '工具调用的输入模式',
  'error.importPart.requested_schema': '工具要求填写的表单',
  'error.importPart.form_content': '对工具表单的回答',
  'error.importPart.unknown': '某个字段',
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
  'error.storageFullUsage': '浏览器存储空间已满：本浏览器允许 Parley 使用 {quota} MB，已用 {used} MB。请删除不再需要的对话（如需保留，请先在“设置 → 你的数据”中导出）。',

  'storage.databaseClosed': '浏览器关闭了 Parley 的数据库。请重新加载页面。',
  'storage.openFailed': 'Parley 无法打开它的存储。请重新加载页面；如果问题仍然存在，请检查是否允许此网站存储数据。',

  'runError.auth': 'API 密钥被拒绝。请在此配置的设置中检查密钥，并确认它有权使用该模型。',
  'runError.not_found': '服务器返回 404 Not Found：该模型在那里可能不存在，或者基础 URL 有误（OpenAI 兼容的服务器通常以 /v1 结尾）。',
  'runError.rate_limited': '提供方正在限制请求频率（请求过多过快）。请稍等片刻，然后点击“继续”。',
  'runError.server': '提供方的服务器出错了。请稍后再试。',
  'runError.network': '无法连接模型提供方。请检查基础 URL、服务器是否在运行，以及你的网络连接。',
  'runError.cors': '服务器有响应，但不允许来自本应用的请求（CORS）。请在服务器设置中允许本应用的来源；详细信息中说明了需要修改什么。',
  'runError.bad_stream': '回复的数据流中途中断或格式有误。点击“继续”从中断处接着写。',
  'runError.bad_request': '提供方拒绝了该请求。',
  'runError.config': '这个模型配置目前无法使用。请打开设置进行修正。',
  'runError.profile_gone': '这个对话的模型配置已被删除。请在上方为它选择一个模型配置以继续；没有发送任何内容。',
  'runError.step_limit': '模型连续执行的步骤过多，已停止。发送一条消息即可继续。',
  'runError.invalid_questions': '模型连续发出了多个无效的问题，因此已停止运行。发送一条消息即可继续。',

  'notice.serverUnreachable': '无法连接模型服务器；Parley 会自动重试。',
  'notice.retryingSoon': '即将重试…',

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
};

export const errorStrings = { en, 'zh-CN': zhCN } satisfies Translations<keyof typeof en>;

import type { baseStrings } from './base-strings';

/** Chinese for base-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const baseStringsZhCN: Record<keyof (typeof baseStrings)['en'], string> = {
  'app.name': 'Parley',
  'title.pending': '（{count}）有事等你处理 · Parley',

  'nav.conversations': '对话',
  'nav.settings': '设置',
  'framed.openInOwnTab': '在单独的标签页中打开 Parley',

  'conversations.new': '新建对话',
  'conversations.empty': '还没有对话。',
  'conversations.pendingBadge': '有问题待回答',
  'conversation.untitled': '新建对话',

  'empty.title': '欢迎使用 Parley',
  'empty.what': 'Parley 是一个完全在浏览器中运行的 AI 助手，它不瞎猜，而是用简短的选择题向你提问。你的对话只保存在这台设备上。',
  'empty.demo': '内置的脚本演示模型可离线使用，无需 API 密钥；随时可以在设置中连接真实模型。',
  'empty.try': '新建一个对话，试试输入：“帮我规划周末”。',

  'chat.loading': '正在打开对话…',
  'chat.rename': '重命名对话',
  'chat.renameShort': '重命名',
  'chat.delete': '删除对话',
  'chat.deleteShort': '删除',
  'chat.deleteTitle': '删除这个对话？',
  'chat.deleteBody': '“{title}”及其所有消息将从这台设备上删除。',
  'chat.profile': '模型配置',
  'chat.profileGone': '已删除的配置：请选择一个…',

  'status.awaitingInput': '等待你的回答',
  'status.running': '正在回复…',
  'status.interrupted': '已中断',
  'status.waitingNetwork': '等待网络',
  'status.serverUnreachable': '无法连接服务器——会自动重试',
  'status.error': '出了点问题',

  'run.continue': '继续',
  'run.retry': '重试',
  'notice.retrying': '{seconds} 秒后重试…',
  'notice.waitingNetwork': '已离线：等待网络恢复…',
  'notice.serverUnreachable': '无法连接模型服务器；Parley 会自动重试。',
  'notice.retryingSoon': '即将重试…',
  'notice.waitingFile': '正在等待仍在从另一台设备同步的文件…',

  'messages.label': '消息',
  'messages.empty': '还没有消息。打个招呼，或试试“帮我规划周末”。',
  'messages.showEarlier': '显示更早的消息（{count} 条）',
  // virtual list
  'messages.jumpToLatest': '跳到最新',
  'message.user': '你',
  'message.assistant': 'Parley',
  'message.interrupted': '已中断',
  'message.notStarted': '尚无回复。',
  'message.stopped': '已停止',
  'message.failed': '失败',
  'message.reasoning': '推理过程',
  'message.cut': '为保持页面流畅，只显示了 {total} 个字符中的前 {shown} 个。',
  'message.showAll': '全部显示',
  'message.clipped': '其余部分（{rest} 个字符）太长，无法在这里显示：“复制”会复制全部内容，导出也包含全部内容。',
  'message.plain': '以纯文本显示：嵌套过深或内容过长，无法排版。',
  'message.usageIn': '输入 {count} 个 token',
  'message.usageInOne': '输入 {count} 个 token',
  'message.usageOut': '输出 {count} 个 token',
  'message.usageOutOne': '输出 {count} 个 token',

  'tool.label': '工具：{name}',
  'tool.arguments': '参数',

  'composer.label': '消息',
  'composer.placeholder': '输入消息…',
  'composer.questionHint': '上方有一个问题在等你。可以在那里回答，也可以直接在这里输入回复。',
  'composer.send': '发送',
  'composer.stop': '停止',
  'composer.tooLong': '这条消息有 {count} 个字符，一条消息最多 {limit} 个字符。请缩短它，或把文字作为文件附加。',

  'dialog.cancel': '取消',
  'dialog.delete': '删除',
  'banner.dismiss': '关闭',

  'settings.modelHeading': '模型',
  'settings.demoInstructionsHint': '演示按脚本回答，不遵循指令；脚本步骤中的 {{systemPrompt}} 会显示它们，就像真正的模型收到的那样。单个对话可以有自己的指令来代替它。',
  'profile.scriptedName': '内置演示',

  'inbox.title': '等你回答（{count}）',
  'inbox.more': '另有 {count} 个',
  'inbox.itemLabel': '{question} — {title}',
  'inbox.itemLabelMore': '{question} — {title}（另有 {count} 个）',


  'update.ready': '新版本已就绪。',
  'update.reload': '重新加载以更新',
  'update.later': '稍后',
  'update.offlineReady': '已可离线使用。',


  'outdated.text': 'Parley 已在另一个标签页中更新。请重新加载此标签页以继续；已保存的内容不会丢失。',
  'outdated.reload': '重新加载',
  'worker.restarted': 'Parley 的后台进程已停止并重新启动。正在写的回复被中断了，你可以继续它。',

  // phone layout
  'chat.actions': '对话操作',
  'message.usageSpeed': '每秒 {rate} 个 token',
  'message.notice.toolsLeftOut': '本次回复未使用工具：此模型的上下文（{tokens} 个 token）容纳不下它们。',
  'message.notice.filesNotHere': '本次回复未包含一个尚未到达此设备的文件：它仍在从另一台设备同步。',
};

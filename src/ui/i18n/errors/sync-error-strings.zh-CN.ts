import type { syncErrorStrings } from './sync-error-strings';

/** Chinese for sync-error-strings (loaded only when the UI speaks Chinese, see errors-dictionary-zh-CN.ts). */
export const syncErrorStringsZhCN: Record<keyof (typeof syncErrorStrings)['en'], string> = {
  'sync.refused.unreadable': '无法打开（密钥不同，或内容被改动）：{count}',
  'sync.refused.replayed': '旧副本被写回，覆盖了较新的副本：{count}',
  'sync.refused.misplaced': '记录被放在另一条记录的 ID 下：{count}',
  'sync.reason.wrong_passphrase': '加密口令错误。请使用你其他设备上的口令。',
  'sync.reason.unauthorized': '服务器拒绝了该密码。请检查用户名和密码。',
  'sync.reason.unreachable': '无法连接同步服务器。请检查 URL 和网络连接；服务器必须允许此应用的来源（CORS）。',
  'sync.reason.not_a_database': '该 URL 不是 CouchDB 数据库。请检查 URL：它以数据库的名称结尾。',
  'sync.reason.key_missing': '这个数据库里有数据，但它的密钥文档不见了：可能有人删除或改动了它。什么都没有改变。如果这在你的预料之中，可以生成新的密钥：此设备上的内容会用新密钥重新上传，你的其他设备需要用同一个口令关闭并重新打开同步。',
  'sync.serverSaid': '服务器的原话：{said}',
  'error.reason.already_sent': '这条消息已经发送过了。',
  'error.reason.runs_elsewhere': '此对话在 {device} 上运行。按“在此设备上继续”即可在这里更改它。',
  'error.reason.taken_over_elsewhere': '另一台设备先接管了它。',
  'error.reason.request_changed': '你做出决定之后，这个请求又被重新提出，所以你的决定没有被采用。请重新决定。',
  'error.reason.sync_off': '同步已关闭。请先在“设置 → 同步”中开启。',
  'error.reason.not_proposable': '只有运行这个对话的设备才能这样做。',
  'error.reason.outdated_device': '发送它的设备运行的是旧版 Parley。请先更新，再重新决定。',
  'error.reason.arguments_changed': '这个工具调用在批准之后发生了变化，所以没有运行。请重新查看。',
};

import type { syncStrings } from './sync-strings';

/** Chinese for sync-strings (loaded only when the UI speaks Chinese, see dictionary-zh-CN.ts). */
export const syncStringsZhCN: Record<keyof (typeof syncStrings)['en'], string> = {
  'sync.anotherDevice': '另一台设备',
  'sync.proposed': '已发送到 {device}。它收到后会在那里继续。',
  'sync.proposedMessage': '已发送到 {device}',
  'sync.proposedStop': '停止请求已发送到 {device}',
  'sync.proposedOffline': '尚未发送：此设备处于离线状态。它会留在这里等待，此设备联网后再发送到 {device}。',
  'sync.proposedStopped': '尚未发送：同步因错误而停止（见“设置 → 同步”）。它会留在这里等待，同步恢复后再发送到 {device}。',
  'sync.proposedMessageOffline': '在此设备上等待联网，联网后发送到 {device}',
  'sync.proposedMessageStopped': '在此设备上等待同步恢复，恢复后发送到 {device}',
  'sync.proposedStopOffline': '停止请求在此设备上等待联网，联网后发送到 {device}',
  'sync.proposedStopStopped': '停止请求在此设备上等待同步恢复，恢复后发送到 {device}',
  'question.summaryAnsweredOn': '已在 {device} 上回答',
  'question.summaryDismissedOn': '已在 {device} 上忽略',
  'question.notUsedOnDevice': '你在此设备上填写的回答未被使用：{answers}',
};

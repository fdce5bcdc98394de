/**
 * Sync, shown with the conversation: the notes of a proposal ("Sent to …"), the name of a device that has none, and
 * where a question was decided. Settings → Sync's and the refusals' words load with an error's
 * (errors/sync-error-strings.ts), a synced conversation's views' with their code (views/sync-view-strings.ts).
 */
const en = {
  'sync.anotherDevice': 'another device',
  'sync.proposed': 'Sent to {device}. It will go on there once it receives it.',
  'sync.proposedMessage': 'Sent to {device}',
  'sync.proposedStop': 'Stop sent to {device}',
  'sync.proposedOffline': 'Not sent yet: this device is offline. It waits here and goes to {device} once this device is online.',
  'sync.proposedStopped': 'Not sent yet: sync stopped on an error (see Settings → Sync). It waits here and goes to {device} once sync works again.',
  'sync.proposedMessageOffline': 'Waits on this device until it is online, then goes to {device}',
  'sync.proposedMessageStopped': 'Waits on this device until sync works again, then goes to {device}',
  'sync.proposedStopOffline': 'Stop waits on this device until it is online, then goes to {device}',
  'sync.proposedStopStopped': 'Stop waits on this device until sync works again, then goes to {device}',
  'question.summaryAnsweredOn': 'Answered on {device}',
  'question.summaryDismissedOn': 'Dismissed on {device}',
  'question.notUsedOnDevice': 'Your answers on this device were not used: {answers}',
};

export const syncStrings = { en };

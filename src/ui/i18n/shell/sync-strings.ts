/**
 * Sync: Settings → Sync, the chat header of a conversation another device runs, the notes of a proposal
 * ("Sent to …"), and where a request was decided. The status and refusal words are shared: `sync.reason.*` words both
 * a SyncStatus's `reason` and a `sync.enable` refusal (`sync_*`).
 */
const en = {
  'sync.keyNeeded': 'This profile came from another device; type its API key here to use it. Nothing was sent.',
  'sync.keyFor': 'API key for {name}',
  'sync.useKey': 'Use this key',
  'sync.refused.unreadable': 'Could not be opened (another key, or changed bytes): {count}',
  'sync.refused.replayed': 'An older copy written back over a newer one: {count}',
  'sync.refused.misplaced': 'A record put under another record’s id: {count}',
  'sync.reason.wrong_passphrase': 'Wrong passphrase. Use the one your other devices use.',
  'sync.reason.unauthorized': 'The server refused the password. Check the username and password.',
  'sync.reason.unreachable': 'Can’t reach the sync server. Check the URL and the connection; the server must allow this app’s origin (CORS).',
  'sync.reason.not_a_database': 'That URL is not a CouchDB database. Check the URL: it ends with the database’s name.',
  'sync.reason.key_missing': 'This database holds data, but its key document is gone: someone may have deleted or changed it. Nothing was changed. If you expected this, make a new key: what this device holds is uploaded again under it, and your other devices must turn sync off and on with the same passphrase.',
  'sync.serverSaid': 'The server said: {said}',
  'sync.runsOn': 'Runs on {device}',
  'sync.otherTitles': 'Also named:',
  'sync.useOtherTitle': 'Use “{title}”',
  'sync.runsOnUnnamed': 'Runs on another device',
  'sync.continueHere': 'Continue on this device',
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
  'sync.decidedOn': 'Decided on {device}',
  'question.summaryAnsweredOn': 'Answered on {device}',
  'question.summaryDismissedOn': 'Dismissed on {device}',
  'question.notUsedOnDevice': 'Your answers on this device were not used: {answers}',
  'error.reason.already_sent': 'This message was already sent.',
  'error.reason.runs_elsewhere': 'This conversation runs on {device}. Press “Continue on this device” to change it here.',
  'error.reason.taken_over_elsewhere': 'Another device took it over first.',
  'error.reason.request_changed': 'This was asked again since you decided, so your decision was not used. Decide again.',
  'error.reason.sync_off': 'Sync is off. Turn it on in Settings → Sync first.',
  'error.reason.not_proposable': 'Only the device that runs this conversation can do that.',
  'error.reason.outdated_device': 'The device that sent this runs an older version of Parley. Update it, then decide again.',
  'error.reason.arguments_changed': 'The tool call changed since it was approved, so it was not run. Look at it again.',
};

export const syncStrings = { en };

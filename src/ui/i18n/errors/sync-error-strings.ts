/**
 * Why sync or a proposal was refused (`sync.reason.*`, `error.reason.*` of sync's refusals), what the server said and
 * the records a pull refused: shown by an error's words and by Settings → Sync, loaded with them (errors-dictionary.ts).
 */
const en = {
  'sync.refused.unreadable': 'Could not be opened (another key, or changed bytes): {count}',
  'sync.refused.replayed': 'An older copy written back over a newer one: {count}',
  'sync.refused.misplaced': 'A record put under another record’s id: {count}',
  'sync.reason.wrong_passphrase': 'Wrong passphrase. Use the one your other devices use.',
  'sync.reason.unauthorized': 'The server refused the password. Check the username and password.',
  'sync.reason.unreachable': 'Can’t reach the sync server. Check the URL and the connection; the server must allow this app’s origin (CORS).',
  'sync.reason.not_a_database': 'That URL is not a CouchDB database. Check the URL: it ends with the database’s name.',
  'sync.reason.key_missing': 'This database holds data, but its key document is gone: someone may have deleted or changed it. Nothing was changed. If you expected this, make a new key: what this device holds is uploaded again under it, and your other devices must turn sync off and on with the same passphrase.',
  'sync.serverSaid': 'The server said: {said}',
  'error.reason.already_sent': 'This message was already sent.',
  'error.reason.runs_elsewhere': 'This conversation runs on {device}. Press “Continue on this device” to change it here.',
  'error.reason.taken_over_elsewhere': 'Another device took it over first.',
  'error.reason.request_changed': 'This was asked again since you decided, so your decision was not used. Decide again.',
  'error.reason.sync_off': 'Sync is off. Turn it on in Settings → Sync first.',
  'error.reason.not_proposable': 'Only the device that runs this conversation can do that.',
  'error.reason.outdated_device': 'The device that sent this runs an older version of Parley. Update it, then decide again.',
  'error.reason.arguments_changed': 'The tool call changed since it was approved, so it was not run. Look at it again.',
} as const;

export const syncErrorStrings = { en };

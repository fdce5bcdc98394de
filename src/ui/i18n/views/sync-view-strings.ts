/**
 * The views of a synced conversation, each loaded with its code (views-dictionary.ts): another device runs it
 * (ChatRunner), its profile's key is needed here (KeyNeededForm), titles given elsewhere (RenameForm), and where a
 * request was decided.
 */
const en = {
  'sync.keyNeeded': 'This profile came from another device; type its API key here to use it. Nothing was sent.',
  'sync.keyFor': 'API key for {name}',
  'sync.useKey': 'Use this key',
  'sync.runsOn': 'Runs on {device}',
  'sync.otherTitles': 'Also named:',
  'sync.useOtherTitle': 'Use “{title}”',
  'sync.runsOnUnnamed': 'Runs on another device',
  'sync.continueHere': 'Continue on this device',
  'sync.decidedOn': 'Decided on {device}',
} as const;

export const syncViewStrings = { en };

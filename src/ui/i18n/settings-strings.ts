
/** Settings → the profile form (issue 21): what the form edits, which profile new conversations use, URL checks. */
const settingsEn = {
  'test.rateLimitedWait': 'The server is limiting requests (HTTP 429). Try again in {seconds} s.',
  'test.rateLimited': 'The server is limiting requests (HTTP 429). Try again in a minute.',
  'settings.newProfile': 'New profile',
  'settings.restoreScript': 'Restore the demo script',
  'settings.newConversationsUse': 'New conversations will use {name}.',
  'settings.urlNotFetchable': 'This Model URL cannot be downloaded: use an address that starts with https:// (or http://).',
  'settings.urlRewritten': 'Changed the Hugging Face page address (/blob/) to its download address (/resolve/).',
  'settings.urlSize': 'Download size: {size}.',
  'settings.urlSizeUnknown': 'The server did not say how big this file is.',
} as const;

export const settingsStrings = { en: settingsEn };

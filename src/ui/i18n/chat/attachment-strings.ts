/**
 * Files sent with a message: the composer's button and chips, their sizes. Why a file was refused is an error's
 * (error-strings.ts), the profile's setting Settings' (settings-strings.ts).
 */
const en = {
  'attach.button': 'Attach files',
  'attach.drop': 'Drop files here to attach them',
  'attach.sent': 'Files sent with this message',
  'attach.size.bytes': '{size} bytes',
  'attach.size.byte': '{size} byte',
  'attach.size.kb': '{size} KB',
  'attach.size.mb': '{size} MB',
  'attach.dismiss': 'Dismiss',
};

export const attachmentStrings = { en };

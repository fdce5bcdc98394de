/** Files sent with a message: the composer's button and chips, what is refused and why, the profile's setting. */
const en = {
  'attach.button': 'Attach files',
  'attach.drop': 'Drop files here to attach them',
  'attach.sent': 'Files sent with this message',
  'attach.size.bytes': '{size} bytes',
  'attach.size.byte': '{size} byte',
  'attach.size.kb': '{size} KB',
  'attach.size.mb': '{size} MB',
  'attach.dismiss': 'Dismiss',
  'error.reason.attachment_unsupported': '“{name}” cannot be sent: it is neither an image nor a text file. Nothing was sent.',
  'error.reason.attachment_too_large': '“{name}” is too large to send. Nothing was sent.',
  'error.reason.attachment_too_many': 'At most {limit} files can go with one message. Nothing was sent.',
  'error.reason.images_not_accepted': 'This model does not accept images, so “{name}” cannot be sent to it. Nothing was sent.',
  'error.reason.attachments_over_quota': 'These files do not fit in the space this browser lets Parley use. Nothing was sent; delete old conversations in Settings → Your data, or attach smaller files.',
  'error.reason.attachment_gone': 'This file is no longer stored.',
  'error.reason.attachment_syncing': 'This file has not reached this device yet: it is still syncing.',
  'error.reason.message_empty': 'Write a message or attach a file first.',
  'settings.acceptsImages': 'Accepts images',
  'settings.acceptsImagesHint': 'Images you attach are sent to this model. Turn this off for a model that reads text only: Parley then says so before sending.',
};

export const attachmentStrings = { en };

/**
 * The attachment chips (AttachmentChips.tsx): a file's chip, its view, what was refused; loaded with them
 * (views-dictionary.ts). The composer's own button and the refusal errors are in attachment-strings.ts.
 */
const en = {
  'attach.remove': 'Remove attachment',
  'attach.list': 'Attachments',
  'attach.refused.unsupported_type': '“{name}” was not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files (code, Markdown, CSV, JSON, plain text), not this kind of file.',
  'attach.refused.too_large': '“{name}” was not attached: it is {size}, and the limit for this kind of file is {limit}.',
  'attach.refused.too_many': 'At most {limit} files can go with one message, so the rest were not attached.',
  'attach.refused.images_not_accepted': '“{name}” was not attached: this model does not accept images. Choose a model profile that does, or send text files only.',
  'attach.refused.unsupported_type.many': '{names} were not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files (code, Markdown, CSV, JSON, plain text), not these kinds of file.',
  'attach.refused.too_large.many': '{names} were not attached: each is larger than {limit}, the limit for this kind of file.',
  'attach.refused.images_not_accepted.many': '{names} were not attached: this model does not accept images. Choose a model profile that does, or send text files only.',
  'attach.view': 'View {name}',
  'attach.syncing.image': 'Image not here yet — it is still syncing',
  'attach.syncing.file': 'File not here yet — it is still syncing',
  'attach.unsaved.image': 'Image not saved on this device — the browser storage is full',
  'attach.unsaved.file': 'File not saved on this device — the browser storage is full',
} as const;

export const attachmentChipStrings = { en };


/** Code blocks, maths, task lists and the actions under each message. */
const en = {
  'markdown.taskDone': 'Done',
  'markdown.taskOpen': 'Not done',
  'code.copy': 'Copy code',
  'code.copied': 'Copied',
  'code.plainTooLong': 'Shown without colours: this code is too long to colour ({lines} lines, {characters} characters).',
  'code.plainLongLine': 'Shown without colours: a line of this code is too long to colour.',
  'code.plainFailed': 'Shown without colours: the highlighter could not read this code.',
  'maths.failed': 'This maths could not be shown ({reason}); its source is above.',
  'maths.tooLong': 'This maths is too long to typeset ({characters} characters); its source is above.',
  'maths.unavailable': 'Maths could not be loaded; its source is shown.',
  'actions.copy': 'Copy',
  'actions.copied': 'Copied',
  'actions.copyFailed': 'Could not copy: the browser refused access to the clipboard.',
};

export const renderStrings = { en };

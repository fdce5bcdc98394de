/**
 * Strings of a tool call's card beyond the request controls: the statuses a call shows before the card's code loads
 * (QueuedToolCall.tsx), what a permission did to a call (ran without asking, not run because of "Never"), the way to that permission in Settings, a call's progress, and a cut-off call.
 */
const en = {
  'tool.status.pending': 'Queued',
  'tool.status.running': 'Running…',
  'tool.status.notRun': 'Not run',
  'tool.never': 'You set this tool to Never.',
  'tool.allowed.ran': 'Ran without asking — Always allow',
  'tool.allowed.running': 'Running without asking — Always allow',
  'tool.changePermission': 'Change permission',
  'tool.changePermissionOf': 'Change permission of {name}',
  'tool.progress': 'Progress of {name}',
  'tool.progressStep': '{progress} of {total}',
  'tool.interruptedNote': 'It was cut off while it ran, so it may or may not have run.',
} as const;

export const toolStrings = { en };

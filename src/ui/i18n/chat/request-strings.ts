/**
 * Strings of a tool's requests that show with the conversation: what it waits for (badge, status, hint), the inbox's
 * words, a request already answered elsewhere. A tool call's card and the request forms have theirs in
 * request-view-strings.ts, loaded with them.
 */
const en = {
  'request.alreadyResolved': 'This was already decided, possibly in another tab.',
  'block.unknown': 'This part of the message ({kind}) is from a newer Parley and cannot be shown here.',
  'inbox.approval': 'Allow {tool}?',
  'inbox.rerun': 'Run {tool} again?',
  'waiting.approvalBadge': 'Approval waiting',
  'waiting.approvalStatus': 'Waiting for your approval',
  'waiting.approvalHint': 'A tool call is waiting above. You can allow or deny it there, or just type a reply here.',
  'waiting.formBadge': 'Form waiting',
  'waiting.formStatus': 'Waiting for you to fill in a form',
  'waiting.formHint': 'A server’s form is waiting above. Submit, decline or cancel it there, or press Stop.',
} as const;

export const requestStrings = { en };

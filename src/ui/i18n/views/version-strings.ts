/**
 * A message's versions (the switch, Delete this version), the editor of your message and "Leave the waiting request?",
 * loaded with their code (messages/MessageBranching.tsx, views-dictionary.ts); Regenerate and Edit themselves are in
 * branch-strings.ts, shown with the conversation.
 */
const en = {
  'branch.versions': 'Versions',
  'branch.previous': 'Previous version',
  'branch.next': 'Next version',
  'branch.position': '{index} of {count}',
  'branch.editBox': 'Edit message',
  'branch.send': 'Send',
  'branch.cancel': 'Cancel',
  'branch.leaveTitle': 'Leave the waiting request?',
  'branch.leaveConfirm': 'Leave it',
  'branch.leaveBody': 'A request for you waits later in this branch. Leaving it closes the request.',
  'branch.delete': 'Delete this version',
  'branch.deleteTitle': 'Delete this version?',
  'branch.deleteBody': 'This version and everything after it in its branch are deleted. The other versions stay.',
} as const;

export const versionStrings = { en };


/** Versions and branches of messages: regenerate, edit and resend, and the version switch. */
export const branchStrings = {
  en: {
    'message.actions': 'Message actions',
    'branch.versions': 'Versions',
    'branch.previous': 'Previous version',
    'branch.next': 'Next version',
    'branch.position': '{index} of {count}',
    'branch.regenerate': 'Regenerate',
    'branch.edit': 'Edit',
    'branch.editBox': 'Edit message',
    'branch.send': 'Send',
    'branch.cancel': 'Cancel',
    'branch.leaveTitle': 'Leave the waiting request?',
    'branch.leaveConfirm': 'Leave it',
    'branch.leaveBody': 'A request for you waits later in this branch. Leaving it closes the request.',
    'branch.delete': 'Delete this version',
    'branch.deleteTitle': 'Delete this version?',
    'branch.deleteBody': 'This version and everything after it in its branch are deleted. The other versions stay.',
  },
};


/** Versions and branches of messages: regenerate, edit and resend, and the version switch. */
export const branchStrings = {
  en: {
    'message.actions': 'Message actions',
    'branch.regenerate': 'Regenerate',
    'branch.edit': 'Edit',
  },
};

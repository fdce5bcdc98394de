/** The keyboard shortcuts' dialog (ShortcutsDialog.tsx), loaded with it (views-dictionary.ts). */
const en = {
  'keys.newConversation': 'New conversation',
  'keys.focusComposer': 'Write a message (focus the composer)',
  'keys.stop': 'Stop the reply being written',
  'keys.help': 'Show these shortcuts',
} as const;

export const shortcutStrings = { en };

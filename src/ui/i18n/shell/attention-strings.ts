
/** Being called back (notifications), keyboard shortcuts, theme, and the model's instructions and parameters. */
export const attentionStrings = {
  en: {
    // A notification says only what waits: anyone who sees the screen (locked, shared) reads it.
    'notify.question': 'Parley is waiting for your answer',
    'notify.approval': 'Parley is waiting for your approval',
    'notify.elicitation': 'Parley is waiting for you to fill in a form',
    'keys.title': 'Keyboard shortcuts',
    'keys.close': 'Close',
    'chat.exportMarkdown': 'Export as Markdown',
    'settings.theme.system': 'System',
    'settings.theme.light': 'Light',
    'settings.theme.dark': 'Dark',
    'chat.instructionsButton': 'Conversation instructions',
  },
};

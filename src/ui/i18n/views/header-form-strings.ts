/** The forms behind a conversation's header actions (RenameForm, ConversationInstructions), loaded with them (views-dictionary.ts). */
const en = {
  'chat.titleField': 'Conversation title',
  'chat.saveTitle': 'Save title',
  'chat.instructions': 'Instructions for this conversation',
  'chat.instructionsHint': 'They take the place of the profile’s instructions in this conversation only. Empty: the profile’s apply.',
  'chat.instructionsSave': 'Save instructions',
  'chat.instructionsSaved': 'Instructions saved.',
} as const;

export const headerFormStrings = { en };

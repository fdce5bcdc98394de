/**
 * Why an import file was refused (`error.reason.import_*` and the like, worded by describeError): only Settings' Data
 * section imports, and it shows these in place, so they load with Settings' strings (settings-dictionary.ts).
 */
const en = {
  'error.reason.import_not_export': 'This is not a Parley export file (the problem is at “{field}”). Nothing was imported.',
  'error.importNotExportFile': 'This is not a Parley export file. Nothing was imported.',
  'error.reason.import_inconsistent':
    'The export file is inconsistent: the messages of conversation {conversation} do not belong to it or repeat a position. Nothing was imported.',
  'error.reason.duplicate_message_id':
    'The export file cannot be imported: message {message} of conversation {conversation} has the same id as another message. Nothing was imported.',
  'error.reason.unsafe_data':
    'The export file cannot be imported: in message {message} of conversation {conversation}, {part} is not plain JSON, is nested too deeply or is too large. Nothing was imported.',
  'error.importPart.arguments': 'the arguments of a tool call',
  'error.importPart.original_arguments': 'the original arguments of a tool call',
  'error.importPart.input_schema': 'the input schema of a tool call',
  'error.importPart.requested_schema': 'the form a tool asked to be filled in',
  'error.importPart.form_content': 'the answer to a tool’s form',
  'error.importPart.unknown': 'a field',
  'data.importNotJson': 'That file is not JSON. Nothing was imported.',
  'error.reason.import_attachment_mismatch': 'The export file cannot be imported: in conversation {conversation}, a file sent with a message is missing, belongs to no message, is of a kind Parley does not send, or is not the size its message says. Nothing was imported.',
};

export const importErrorStrings = { en };

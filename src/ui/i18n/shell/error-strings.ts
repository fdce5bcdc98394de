
/**
 * What went wrong, worded from the codes the worker sends (`error.reason.*` from a WireError's reason, `runError.*`
 * from a run's or an error block's code; a connection test's `test.*` are Settings' own, connection-test-strings.ts).
 * `{name}` marks a parameter.
 */
const en = {
  'error.details': 'Details',

  'error.reason.scripted_profile_builtin': 'The built-in demo profile cannot be changed; edit its script instead.',
  'error.reason.scripted_profile_undeletable': 'The built-in demo profile cannot be deleted.',
  'error.reason.base_url_scheme': 'The base URL must start with http:// or https://.',
  'error.reason.malformed_command': 'Parley sent itself a request it could not read. Reload the page and try again.',
  'error.reason.conversation_gone': 'This conversation no longer exists. It may have been deleted in another tab.',
  'error.reason.message_gone': 'That message no longer exists. It may have been deleted in another tab.',
  'error.reason.question_gone': 'That question no longer exists. It may have been deleted in another tab.',
  'error.reason.profile_gone': 'That model profile no longer exists. Choose another one.',
  'error.reason.run_in_other_tab': 'A reply is still being written in another tab. Stop it first, or wait for it to finish.',
  'error.reason.run_in_progress': 'A reply is still being written. Stop it first, or wait for it to finish.',
  'error.reason.nothing_to_continue': 'There is nothing to continue in this conversation.',
  'error.reason.answer_count': 'The answers do not match the questions ({got} answers for {expected} questions). Reload the page and answer again.',
  'error.reason.answer_unknown_option': '“{option}” is not an option of “{question}”.',
  'error.reason.answer_no_free_text': '“{question}” does not take an answer of your own: choose one of its options.',
  'error.reason.answer_single_only': '“{question}” takes a single answer.',
  'error.reason.answer_nothing': 'Answer at least one question, or dismiss the questions.',
  'error.reason.save_failed': 'Saving failed, so nothing was changed. Try again, or reload the page.',
  'error.reason.request_gone': 'This request no longer exists here. It may have been deleted in another tab.',
  'error.reason.arguments_invalid': 'These arguments do not fit what {tool} accepts, so nothing ran. Correct them and press Allow again.',
  'error.reason.form_invalid': 'The answer does not fit what {server} asked for. Correct the fields and submit again.',
  'error.reason.elicitation_dead': 'The tool that asked this has stopped (the app was closed or reloaded while it waited), so it can no longer receive an answer.',
  'error.reason.elicitation_pending': 'A tool is waiting for your answer in the form above. Submit, decline or cancel it first, or press Stop.',
  'error.reason.draft_not_question': 'Only a question keeps a draft.',
  'error.reason.profile_no_model': 'Choose the model this profile talks to: press Test connection to list the server’s models.',
  'error.reason.server_name_taken': 'A server named “{name}” already uses the tool names {prefix}…; give this one another name.',
  'error.storageFullUsage':
    'The browser storage is full: Parley uses {used} MB of the {quota} MB this browser allows it. Delete conversations you no longer need (export them first in Settings → Your data to keep a copy).',

  'storage.databaseClosed': 'The browser closed Parley’s database. Reload the page.',
  'storage.openFailed': 'Parley could not open its storage. Reload the page; if it keeps happening, check that this site may store data.',
  'error.reason.attachment_unsupported': '“{name}” cannot be sent: it is neither an image nor a text file. Nothing was sent.',
  'error.reason.attachment_too_large': '“{name}” is too large to send. Nothing was sent.',
  'error.reason.attachment_too_many': 'At most {limit} files can go with one message. Nothing was sent.',
  'error.reason.images_not_accepted': 'This model does not accept images, so “{name}” cannot be sent to it. Nothing was sent.',
  'error.reason.attachments_over_quota': 'These files do not fit in the space this browser lets Parley use. Nothing was sent; delete old conversations in Settings → Your data, or attach smaller files.',
  'error.reason.attachment_gone': 'This file is no longer stored.',
  'error.reason.attachment_syncing': 'This file has not reached this device yet: it is still syncing.',
  'error.reason.message_empty': 'Write a message or attach a file first.',
  'settings.scriptInvalid': 'The script was not saved: it is not a valid script.',
  'settings.testOk': 'Connected.',
  'settings.testFailed': 'The connection failed.',
  'storage.error': 'Parley could not save your data.',
  'error.invalid_command': 'That request was not valid.',
  'error.not_found': 'That item no longer exists.',
  'error.already_resolved': 'That question was already answered.',
  'error.invalid_answer': 'That answer was not valid.',
  'error.invalid_state': 'That cannot be done right now.',
  'error.busy': 'Another tab is working on this conversation.',
  'error.storage_full': 'The browser storage is full. Nothing was lost; delete conversations you no longer need, then try again.',
  'error.app_outdated': 'Parley was updated in another tab.',
  'error.provider_error': 'The model provider reported an error.',
  'error.internal': 'Something went wrong.',
  'error.unexpected': 'Something unexpected went wrong.',
};

export const errorStrings = { en };


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
  'error.reason.request_pending_in_branch': 'A request for you waits later in this branch. Leaving it closes the request.',
  'error.reason.profile_no_model': 'Choose the model this profile talks to: press Test connection to list the server’s models.',
  'error.reason.server_name_taken': 'A server named “{name}” already uses the tool names {prefix}…; give this one another name.',
  'error.storageFullUsage':
    'The browser storage is full: Parley uses {used} MB of the {quota} MB this browser allows it. Delete conversations you no longer need (export them first in Settings → Your data to keep a copy).',

  'storage.databaseClosed': 'The browser closed Parley’s database. Reload the page.',
  'storage.openFailed': 'Parley could not open its storage. Reload the page; if it keeps happening, check that this site may store data.',

  'runError.auth': 'The API key was rejected. Check the key in this profile’s settings, and that it may use this model.',
  'runError.not_found':
    'The server answered 404 Not Found: the model may not exist there, or the base URL is wrong (OpenAI-compatible servers usually end in /v1).',
  'runError.rate_limited': 'The provider is limiting requests (too many, too fast). Wait a little, then use Continue.',
  'runError.server': 'The provider had a server error. Try again in a moment.',
  'runError.network': 'The model provider cannot be reached. Check the base URL, that the server is running, and your connection.',
  'runError.cors':
    'The server answered, but it does not allow requests from this app (CORS). Allow this app’s origin in the server’s settings; the details say what to change.',
  'runError.bad_stream': 'The answer stream stopped in the middle or was malformed. Use Continue to pick up where it stopped.',
  'runError.bad_request': 'The provider rejected the request.',
  'runError.context_too_small': "This model's context is too small for even one message. Choose a model with a larger context in Settings.",
  'runError.config': 'This model profile cannot be used as it is. Open Settings to fix it.',
  'runError.key_needed': 'This profile’s API key is needed on this device.',
  'runError.profile_gone': 'This conversation’s model profile was deleted. Choose a model profile for it above to continue; nothing was sent.',
  'runError.step_limit': 'Stopped after too many model steps in a row. Write a message to go on.',
  'runError.invalid_questions': 'The model sent several invalid questions in a row, so the run was stopped. Write a message to go on.',

  'notice.serverUnreachable': 'The model server cannot be reached; Parley tries again by itself.',
  'notice.retryingSoon': 'Retrying soon…',
};

export const errorStrings = { en };

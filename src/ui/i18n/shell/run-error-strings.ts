/**
 * What stopped a run, in one sentence (`runError.*`, from a run's or an error block's code), said by the status line
 * and the error block: loaded with an error's other words (errors-dictionary.ts), with the data of a conversation that
 * stopped on an error or with the first error shown. A first conversation shows none.
 */
const en = {
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
  'runError.images_not_accepted': 'This model does not accept images, and this conversation holds one. Choose a model profile that accepts images, or edit the message to send it without the image.',
  'runError.step_limit': 'Stopped after too many model steps in a row. Write a message to go on.',
  'runError.invalid_questions': 'The model sent several invalid questions in a row, so the run was stopped. Write a message to go on.',
} as const;

export const runErrorStrings = { en };

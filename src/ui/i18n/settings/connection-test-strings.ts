/**
 * What a profile's "Test connection" found (`test.*`, worded by describeTestResult from the worker's reason): shown only
 * in Settings' profile form, so loaded with Settings' strings (settings-dictionary.ts).
 */
const en = {
  'test.connectedOne': 'Connected. 1 model available.',
  'test.connectedMany': 'Connected. {count} models available.',
  'test.connectedOneModelMissing': 'Connected. 1 model available. The model “{model}” is not among them: check its name.',
  'test.connectedManyModelMissing': 'Connected. {count} models available. The model “{model}” is not among them: check its name.',
  'test.scripted': 'The scripted model runs in this app and needs no connection.',
  'test.in_browser': 'The in-browser model runs on this device and needs no connection once it is downloaded.',
  'test.missing_settings': 'Fill in the missing settings first (the base URL, and for Anthropic the API key).',
  'test.timeout': 'The server did not answer within {seconds} s.',
  'test.models_not_found':
    'The model list was not found (HTTP 404). Check the base URL: OpenAI-compatible servers usually end in /v1, Anthropic’s is https://api.anthropic.com/v1.',
  'test.not_a_model_list': 'The server answered, but not with a model list. Check the base URL.',
  'test.rateLimitedWait': 'The server is limiting requests (HTTP 429). Try again in {seconds} s.',
  'test.rateLimited': 'The server is limiting requests (HTTP 429). Try again in a minute.',
};

export const connectionTestStrings = { en };


/**
 * The "Details" line of a run's error, worded from the worker's detail code and parameters (`errorDetail.<key>`), so
 * nothing Parley itself writes stays English. `{said}` is the server's, the engine's or the script parser's own words.
 */
const en = {
  'errorDetail.said': 'The provider said: {said}',
  'errorDetail.http_auth': 'The server answered HTTP {status}. Check the key in this profile’s settings, and that it is allowed to use this model.',
  'errorDetail.http_auth_model': 'The server answered HTTP {status}. Check the key in this profile’s settings, and that it is allowed to use the model "{model}".',
  'errorDetail.http_not_found': 'The server at {baseUrl} answered 404 Not Found: the model "{model}" may not exist there, or the base URL is wrong (OpenAI-compatible servers usually end in /v1).',
  'errorDetail.http_rate_limited': 'The provider is limiting requests (HTTP 429).',
  'errorDetail.http_rate_limited_wait': 'The provider is limiting requests (HTTP 429) and asked to wait {seconds} s.',
  'errorDetail.http_server': 'The provider had a server error (HTTP {status}).',
  'errorDetail.http_rejected': 'The provider rejected the request (HTTP {status}).',
  'errorDetail.http_rejected_silent': 'The provider rejected the request (HTTP {status}) and gave no reason.',
  'errorDetail.cors': 'The server at {baseUrl} answered, but it does not allow requests from this app (CORS). The server must allow the origin {origin}.',
  'errorDetail.cors_headers':
    'The server at {baseUrl} answered, but it does not allow requests from this app (CORS). The server must allow the origin {origin} and the request headers {headers}.',
  'errorDetail.cors_ollama':
    'Ollama at {baseUrl} is running but does not allow requests from this app. Set OLLAMA_ORIGINS={origin} in Ollama’s environment (for example `OLLAMA_ORIGINS={origin} ollama serve`) and restart Ollama.',
  'errorDetail.unreachable': 'Cannot reach {baseUrl}. Check the base URL, that the server is running, and your connection.',
  'errorDetail.unreachable_mixed_content':
    'Cannot reach {baseUrl}. This page is served over https, and browsers block requests to plain http servers other than localhost.',
  'errorDetail.offline': 'You are offline, so the model provider cannot be reached. Reconnect and try again.',
  'errorDetail.offline_waiting': 'You are offline. The reply continues when the connection is back.',
  'errorDetail.stream_error': 'The provider reported an error in the middle of its answer: {said}',
  'errorDetail.stream_malformed': 'The provider’s answer stream was malformed. Try Continue, or check that the base URL points to an OpenAI-compatible or Anthropic API.',
  'errorDetail.stream_cut': 'The answer from {baseUrl} stopped in the middle (the connection dropped or the stream ended early).',
  'errorDetail.request_failed': 'The request to the provider failed: {said}',
  'errorDetail.script_invalid': 'The scripted model cannot run; fix its script in Settings → Script: {said}',
  'errorDetail.profile_incomplete': 'The profile “{name}” is missing a setting it needs (a base URL, a model name, or for Anthropic an API key). Open Settings to fill it in.',
  'errorDetail.in_browser_no_model': 'The profile “{name}” has no model yet. Open Settings, choose a model and press Download.',
  'errorDetail.in_browser_context_full': 'This conversation no longer fits in the in-browser model’s memory ({tokens} tokens of context). Start a new conversation to go on with this model.',
  'errorDetail.in_browser_failed': 'The in-browser model failed: {said}',
  'errorDetail.in_browser_not_stored': 'The model’s file is not stored on this device. Open Settings and press Download.',
  'errorDetail.in_browser_memory': 'This device does not have enough memory for this model. Choose a smaller one in Settings.',
  'errorDetail.in_browser_load': 'The in-browser engine could not load this model file.',
  'errorDetail.in_browser_quota': 'The browser has no room left to store this model.',
  'errorDetail.in_browser_storage': 'The model file could not be read from or written to this device’s storage.',
  'errorDetail.in_browser_truncated': 'The stored model file is incomplete. Delete it in Settings and download it again.',
  'errorDetail.in_browser_not_gguf': 'The stored file is not a GGUF model file.',
  'errorDetail.in_browser_bad_source': 'The model’s address cannot be used. Choose another model in Settings.',
  'errorDetail.in_browser_network': 'The model file could not be downloaded. Check your connection.',
  'errorDetail.in_browser_http': 'The server holding the model file refused to send it.',
};

export const errorDetailStrings = { en };

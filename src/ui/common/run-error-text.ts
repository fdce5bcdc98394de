import { t, type MessageKey } from '../i18n/i18n';

/** Every code a run's error or an error block can carry: the model errors, and the loop's own stops. */
export const RUN_ERROR_KEYS = {
  auth: 'runError.auth',
  not_found: 'runError.not_found',
  rate_limited: 'runError.rate_limited',
  server: 'runError.server',
  network: 'runError.network',
  cors: 'runError.cors',
  bad_stream: 'runError.bad_stream',
  bad_request: 'runError.bad_request',
  context_too_small: 'runError.context_too_small',
  config: 'runError.config',
  profile_gone: 'runError.profile_gone',
  key_needed: 'runError.key_needed',
  images_not_accepted: 'runError.images_not_accepted',
  step_limit: 'runError.step_limit',
  invalid_questions: 'runError.invalid_questions',
} as const satisfies Record<string, MessageKey>;

/**
 * What stopped a run, in one sentence of the UI's language, from its code (stored data may hold any string: an unknown
 * code is "Something went wrong"). Loaded with an error's words (error-words.ts), which bring its strings.
 */
export function runErrorText(code: string): string {
  return t(Object.hasOwn(RUN_ERROR_KEYS, code) ? RUN_ERROR_KEYS[code as keyof typeof RUN_ERROR_KEYS] : 'status.error');
}

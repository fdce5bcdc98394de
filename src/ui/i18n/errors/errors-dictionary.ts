import { errorDetailStrings } from '../chat/error-detail-strings';
import { errorStrings } from '../shell/error-strings';
import { syncErrorStrings } from './sync-error-strings';

/**
 * The English words of an error (why a command was refused, a run error's details, a storage failure): a chunk loaded
 * with the first error shown (common/lazy-error-words.ts), not with the page. What stopped a run in one sentence stays
 * with the page (shell/run-error-strings.ts): the status line says it.
 */
export const errorsEnglish = { ...errorStrings.en, ...errorDetailStrings.en, ...syncErrorStrings.en };

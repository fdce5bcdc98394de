import { errorDetailStrings } from '../chat/error-detail-strings';
import { errorStrings } from '../shell/error-strings';
import { runErrorStrings } from '../shell/run-error-strings';
import { syncErrorStrings } from './sync-error-strings';

/**
 * The English words of an error (why a command was refused, what stopped a run and its details, a storage failure): a
 * chunk loaded with the first error shown (common/lazy-error-words.ts), not with the page.
 */
export const errorsEnglish = { ...errorStrings.en, ...errorDetailStrings.en, ...syncErrorStrings.en, ...runErrorStrings.en };

import { createSignal } from 'solid-js';
import { withStrings } from '../i18n/i18n';
import type { ErrorWords } from './error-words';

type ErrorWordsModule = typeof import('./error-words');

/**
 * error-words.ts and an error's strings (i18n/errors), loaded with the first error the page shows, not with the page:
 * a first visit and a first reply show none. Settings, loaded on use itself, imports error-words.ts directly.
 */
let loading: Promise<ErrorWordsModule> | undefined;
const [loaded, setLoaded] = createSignal<ErrorWordsModule>();

/** The module, once it and its strings are here (forgotten when a load fails, so the next error tries again). */
export function loadErrorWords(): Promise<ErrorWordsModule> {
  return (loading ??= withStrings('errors', () => import('./error-words')).then(
    (module) => {
      setLoaded(() => module);
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));
}

/**
 * The module once loaded, as a signal (undefined before): a view of an error words it in a computation that follows
 * the UI's language, and shows nothing until the words are here. Asks for the load, so a view that shows an error
 * needs nothing else.
 */
export function errorWordsModule(): ErrorWordsModule | undefined {
  const module = loaded();
  if (!module) void loadErrorWords().catch(() => undefined);
  return module;
}

/** `error` in the UI's words, once they are loaded (see describeError). */
export async function wordError(error: unknown): Promise<ErrorWords> {
  return (await loadErrorWords()).describeError(error);
}

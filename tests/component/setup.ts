import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@solidjs/testing-library';
import { afterEach, beforeAll } from 'vitest';
import { prepareSanitizer } from '../../src/ui/markdown/sanitize';
import { loadStrings } from '../../src/ui/i18n/i18n';
import { loadErrorWords } from '../../src/ui/common/lazy-error-words';

// findBy/waitFor give up after 1 s by default; on a shared 2-core machine under load a worker round trip can take
// longer. A bound, not a timing assertion: a test that waits for something that never comes still fails.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());

// jsdom has no HTML Sanitizer API: the renderer's tests run with its fallback, DOMPurify, loaded as the app loads it.
beforeAll(() => prepareSanitizer());
// The app loads Settings' strings with Settings (App.tsx), the views' that load on use with their code (withStrings), and
// an error's words with the first error shown (lazy-error-words.ts); tests render them on their own.
beforeAll(() => Promise.all([loadStrings('settings'), loadStrings('views'), loadErrorWords()]));

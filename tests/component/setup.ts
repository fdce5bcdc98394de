import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@solidjs/testing-library';
import { afterEach } from 'vitest';

// findBy/waitFor give up after 1 s by default; on a shared 2-core machine under load a worker round trip can take
// longer. A bound, not a timing assertion: a test that waits for something that never comes still fails.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());

import { gzipSync } from 'node:zlib';
import { expect, test, type Response } from '@playwright/test';

/**
 * Every script a cold first visit fetches, the page's and its agent worker's (with their dynamic imports), gzipped as
 * a server would. Bytes, not time: the build decides them, so the check is deterministic. The project's budget is
 * 90 KiB (issue 21.21); LIMIT_KIB is what the app loads today, so a regression fails here (lower it as the load shrinks).
 */
// 84 → 87 with the security round (86.1 measured): every text view capped and sliced (LongText, in the message view),
// long texts clipped on their way to the page, the framed-page check before anything starts, notification words, and
// the English strings of the sync warnings. Strings loaded per screen (the performance issue's first item) is how it
// comes back down.
// 87 → 89 with the round-three items merged together (88.3 measured; each branch alone was under 87): the English
// strings of the new controls (keyboard shortcuts' button, grouped refusals, offline notes, plurals; i18n 18 → 19.3 KiB)
// and the shared modal dialog in its own chunk. The same way back down: strings per screen.
// 89 → 87 with Settings' strings loaded with Settings (85.3 measured; i18n 19.3 → 15.7 KiB).
const LIMIT_KIB = 87;

// A first visit: nothing cached, no service worker yet (its precache is a background download, not the page's load).
test.use({ serviceWorkers: 'block' });

test('a cold first visit loads no more JavaScript than its limit, the worker\'s included', async ({ page, context }) => {
  const scripts: Response[] = [];
  // On the context, so the dedicated worker's script and its imports are seen as well as the page's.
  context.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response);
  });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();
  // The worker's entry has arrived; the network going idle then means its static imports have too.
  await expect.poll(() => scripts.some((response) => /\/assets\/main-[^/]*\.js$/.test(response.url()))).toBe(true);
  await page.waitForLoadState('networkidle');

  const sizes = new Map<string, number>();
  for (const response of scripts) sizes.set(new URL(response.url()).pathname, gzipSync(await response.body()).length / 1024);
  const totalKiB = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const breakdown = [...sizes].map(([file, size]) => `${file} ${size.toFixed(1)} KiB`).join(', ');
  expect(totalKiB, `first-load JavaScript, gzip: ${breakdown}`).toBeLessThanOrEqual(LIMIT_KIB);
});

import { defineConfig } from '@playwright/test';
import { BASE_URL, E2E_PORT, chromiumLaunchOptions } from './e2e/fixtures';

/**
 * End-to-end tests against the production build served by `vite preview`, so the real service worker and
 * the real Web Worker run. `npm test` builds first; this config only serves `dist/`.
 */
export default defineConfig({
  testDir: 'e2e',
  // The machines have two cores: two workers keep the suite fast without starving the preview server.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // `list` prints one line per test and a final count; the JSON file is for tools that want the details.
  reporter: [['list'], ['json', { outputFile: 'playwright-report/results.json' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `npx vite preview --port ${E2E_PORT} --strictPort`,
    url: BASE_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});

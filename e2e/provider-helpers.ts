import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { startProviderServer, type ProviderServer, type RecordedRequest } from '../tests/server/provider-server';
import { assistantMessages, messageLog, newConversation, send, userMessages } from './fixtures';

/**
 * Shared pieces of the real-provider end-to-end specs: a real local provider server (tests/server/provider-server.ts)
 * per Playwright worker, profiles set up through the Settings view as a user would, and looks at what the server
 * received. The page calls the server cross-origin (localhost:4173 → 127.0.0.1:<port>), so CORS is real.
 */

/**
 * `provider` is the worker's provider server, emptied (queue and record) before each test so one test's
 * leftovers never answer the next. Tests in one Playwright worker run one at a time, so they never share it.
 */
export const test = base.extend<{ provider: ProviderServer }, { providerServer: ProviderServer }>({
  providerServer: [
    // The empty pattern is how Playwright is told this fixture needs no other fixture.
    async ({}, use) => {
      const server = await startProviderServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  provider: async ({ providerServer }, use) => {
    providerServer.reset();
    await use(providerServer);
    providerServer.reset();
  },
});

export { expect };

/** The Settings "Provider" option of a remote profile. */
export type ProviderLabel = 'OpenAI-compatible' | 'Anthropic';

/** What a user types into the profile form. */
export interface ProfileFields {
  provider: ProviderLabel;
  name: string;
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** A profile for `provider` against the test server; the key is unique per profile, so a leak is traceable. */
export function profileFor(server: ProviderServer, provider: ProviderLabel, name = `Local ${provider}`): ProfileFields {
  const tag = provider === 'Anthropic' ? 'ant' : 'oai';
  return {
    provider,
    name,
    // The server answers under /v1 (…/v1/chat/completions, …/v1/messages, …/v1/models), as the real services do.
    baseUrl: `${server.url}/v1`,
    apiKey: `sk-${tag}-SECRET-${Math.random().toString(36).slice(2, 10)}-7q9z`,
    model: provider === 'Anthropic' ? 'claude-test' : 'test-model',
  };
}

/** The masked form Settings shows of a stored key (src/worker/settings/settings-store.ts maskKey). */
export function maskedKey(apiKey: string): string {
  return apiKey.length <= 8 ? '••••' : `••••${apiKey.slice(-4)}`;
}

/** The Settings form's fields, by their contract names. */
export function profileForm(page: Page) {
  const exact = { exact: true } as const;
  return {
    provider: page.getByRole('combobox', { name: 'Provider', ...exact }),
    name: page.getByRole('textbox', { name: 'Name', ...exact }),
    baseUrl: page.getByRole('textbox', { name: 'Base URL', ...exact }),
    // A password input has no textbox role.
    apiKey: page.getByLabel('API key', exact),
    model: page.getByRole('combobox', { name: 'Model', ...exact }).or(page.getByRole('textbox', { name: 'Model', ...exact })),
    testButton: page.getByRole('button', { name: 'Test connection', ...exact }),
    // Settings holds other live regions too (sync's status), so the result is found by its own class as well.
    testResult: page.locator('.settings').getByRole('status').and(page.locator('.test-result')),
    save: page.getByRole('button', { name: 'Save', ...exact }),
  };
}

/** Opens Settings from wherever the page is. */
export async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/#\/settings$/);
}

/**
 * Fills the profile form for a new remote profile and saves it (a profile just added becomes the default for new
 * conversations; those made before keep theirs). Stays in Settings.
 * With `testConnection`, presses "Test connection" first and waits for its result, returned as text.
 */
export async function addProfile(page: Page, fields: ProfileFields, options: { testConnection?: boolean } = {}): Promise<string | undefined> {
  await openSettings(page);
  const form = profileForm(page);
  await form.provider.selectOption({ label: fields.provider });
  await form.name.fill(fields.name);
  await form.baseUrl.fill(fields.baseUrl);
  await form.apiKey.fill(fields.apiKey);
  await form.model.fill(fields.model);
  let testResult: string | undefined;
  if (options.testConnection) {
    await form.testButton.click();
    await expect(form.testResult).not.toHaveText(/^$|Testing…/);
    testResult = (await form.testResult.textContent()) ?? '';
  }
  await form.save.click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  // Saved: the field is cleared and only the masked key is shown.
  await expect(form.apiKey).toHaveValue('');
  await expect(form.apiKey).toHaveAttribute('placeholder', maskedKey(fields.apiKey));
  return testResult;
}

/** The chat header's "Model profile" select. */
export function profileSelect(page: Page): Locator {
  return page.getByRole('combobox', { name: 'Model profile', exact: true });
}

/** Starts a conversation and makes `profileName` its profile through the chat header; resolves with its id. */
export async function conversationWithProfile(page: Page, profileName: string): Promise<string> {
  const conversationId = await newConversation(page);
  await profileSelect(page).selectOption({ label: profileName });
  await expect(profileSelect(page).locator('option:checked')).toHaveText(profileName);
  return conversationId;
}

/**
 * The usual start of a spec: the app open, a profile for `provider` saved, a fresh conversation using it.
 */
export async function startWithProfile(page: Page, server: ProviderServer, provider: ProviderLabel = 'OpenAI-compatible'): Promise<{ profile: ProfileFields; conversationId: string }> {
  await page.goto('/');
  const profile = profileFor(server, provider);
  await addProfile(page, profile);
  const conversationId = await conversationWithProfile(page, profile.name);
  return { profile, conversationId };
}

/** The model calls the server received (POST …/chat/completions or …/messages), oldest first. */
export function chatRequests(server: ProviderServer): RecordedRequest[] {
  return server.requests.filter((request) => request.method === 'POST' && /\/(chat\/completions|messages)$/.test(request.path));
}

/** Waits until the server has received exactly `count` model calls. */
export async function expectChatRequestCount(server: ProviderServer, count: number): Promise<void> {
  await expect.poll(() => chatRequests(server).length, { message: 'model calls received by the provider server' }).toBe(count);
}

/** A request body's `messages`, whatever the provider. */
export function requestMessages(request: RecordedRequest | undefined): Array<{ role: string; content?: unknown; [key: string]: unknown }> {
  const body = request?.body as { messages?: unknown } | undefined;
  return Array.isArray(body?.messages) ? (body.messages as Array<{ role: string; content?: unknown }>) : [];
}

/** Sends `text` and waits until the reply to it is complete and contains `replyText`; resolves with the reply. */
export async function exchange(page: Page, text: string, replyText: string): Promise<Locator> {
  const before = await assistantMessages(page).count();
  await send(page, text);
  const reply = assistantMessages(page).nth(before);
  await expect(reply).toHaveAttribute('data-status', 'complete');
  await expect(reply).toContainText(replyText);
  return reply;
}

/** The chat's run-bar notice ("Retrying in 1s…", "Offline: waiting…"). */
export function runNotice(page: Page): Locator {
  // The run bar holds two live regions: this notice, and sync's proposal note (always there, empty without sync).
  return page.locator('.run-bar').getByRole('status').and(page.locator('.run-notice'));
}

/** The chat header's status line (run state, or the run's error message). */
export function chatStatusLine(page: Page): Locator {
  return page.getByRole('main').locator('header p[aria-live]');
}

/**
 * After a reload: every user message and reply text named is still in the log, in order, and nothing was
 * added or lost (the counts match).
 */
export async function expectHistoryKept(page: Page, userTexts: readonly string[], replyTexts: readonly string[]): Promise<void> {
  await expect(messageLog(page)).toBeVisible();
  await expect(userMessages(page)).toHaveCount(userTexts.length);
  for (const [index, text] of userTexts.entries()) await expect(userMessages(page).nth(index)).toContainText(text);
  for (const [index, text] of replyTexts.entries()) await expect(assistantMessages(page).nth(index)).toContainText(text);
}

/** Everything of the page a user or a script could read: the markup plus the live values of its fields. */
export function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const fields = [...document.querySelectorAll('input, textarea, select')].map((field) => (field as HTMLInputElement).value);
    return [document.documentElement.outerHTML, ...fields, document.title, location.href].join('\n');
  });
}

import type { Page } from '@playwright/test';
import { assistantMessages, newConversation, send, useScript } from './fixtures';
import { chatRequests, conversationWithProfile, expect, expectChatRequestCount, openSettings, profileFor, profileForm, requestMessages, test, type ProviderLabel } from './provider-helpers';

// Instructions and parameters: a profile's Instructions, Temperature and Max output tokens, and a
// conversation's own instructions, reach the provider as its system message and sampling settings.

const PROFILE_INSTRUCTIONS = 'Always answer like a pirate.';
const CONVERSATION_INSTRUCTIONS = 'In this conversation, answer in haiku.';

async function addProfileWithInstructions(page: Page, provider: ProviderLabel, server: Parameters<typeof profileFor>[0]) {
  // An Anthropic model that takes sampling settings: the AI SDK drops temperature for the current ones, which refuse it.
  const profile = { ...profileFor(server, provider), ...(provider === 'Anthropic' ? { model: 'claude-3-haiku-20240307' } : {}) };
  await openSettings(page);
  const form = profileForm(page);
  await form.provider.selectOption({ label: provider });
  await form.name.fill(profile.name);
  await form.baseUrl.fill(profile.baseUrl);
  await form.apiKey.fill(profile.apiKey);
  await form.model.fill(profile.model);
  await page.getByRole('textbox', { name: 'Instructions', exact: true }).fill(PROFILE_INSTRUCTIONS);
  await page.getByRole('spinbutton', { name: 'Temperature', exact: true }).fill('0.3');
  await page.getByRole('spinbutton', { name: 'Max output tokens', exact: true }).fill('256');
  await form.save.click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  return profile;
}

/** The system text a request carried: OpenAI's system message, or Anthropic's `system`. */
function systemOf(request: ReturnType<typeof chatRequests>[number] | undefined): string {
  const body = request?.body as { system?: unknown } | undefined;
  if (typeof body?.system === 'string') return body.system;
  if (Array.isArray(body?.system)) return (body.system as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
  const system = requestMessages(request).find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

for (const provider of ['OpenAI-compatible', 'Anthropic'] as const) {
  test(`${provider}: the profile's instructions and sampling reach the server; the conversation's own take their place`, async ({ page, provider: server }) => {
    await page.goto('/');
    const profile = await addProfileWithInstructions(page, provider, server);
    await conversationWithProfile(page, profile.name);
    server.enqueue({ text: 'Arr.' }, { text: 'Haiku.' });
    await send(page, 'Hello');
    await expect(assistantMessages(page).last()).toContainText('Arr.');
    await expectChatRequestCount(server, 1);
    const first = chatRequests(server)[0];
    expect(systemOf(first)).toContain('You are Parley');
    expect(systemOf(first)).toContain(PROFILE_INSTRUCTIONS);
    const body = first?.body as Record<string, unknown>;
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(256);

    await page.getByRole('button', { name: 'Conversation instructions', exact: true }).click();
    await page.getByRole('textbox', { name: 'Instructions for this conversation', exact: true }).fill(CONVERSATION_INSTRUCTIONS);
    await page.getByRole('button', { name: 'Save instructions', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Instructions saved.' })).toBeVisible();
    await page.reload();
    await send(page, 'Again');
    await expect(assistantMessages(page).last()).toContainText('Haiku.');
    await expectChatRequestCount(server, 2);
    const second = systemOf(chatRequests(server)[1]);
    expect(second).toContain(CONVERSATION_INSTRUCTIONS);
    expect(second).not.toContain(PROFILE_INSTRUCTIONS);
  });
}

test('Test connection fills Model from the server’s list, and Save refuses a profile with no model, in words', async ({ page, provider: server }) => {
  await page.goto('/');
  await openSettings(page);
  const form = profileForm(page);
  await form.provider.selectOption({ label: 'OpenAI-compatible' });
  await form.name.fill('Listed');
  await form.baseUrl.fill(`${server.url}/v1`);
  await form.save.click();
  await expect(page.getByRole('alert')).toHaveText('Choose the model this profile talks to: press Test connection to list the server’s models.');
  server.enqueue({ models: ['first-model', 'second-model'] });
  await form.testButton.click();
  await expect(form.model).toHaveValue('first-model');
  await page.getByRole('combobox', { name: 'Models on the server', exact: true }).selectOption('second-model');
  await expect(form.model).toHaveValue('second-model');
  await form.save.click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
});

test('the scripted model shows what it received: {{systemPrompt}} holds the conversation’s instructions', async ({ page }) => {
  await page.goto('/');
  await useScript(page, { steps: [{ text: 'System: {{systemPrompt}}' }], chunkSize: 400, chunkDelayMs: 5 });
  await newConversation(page);
  await page.getByRole('button', { name: 'Conversation instructions', exact: true }).click();
  await page.getByRole('textbox', { name: 'Instructions for this conversation', exact: true }).fill('Be brief.');
  await page.getByRole('button', { name: 'Save instructions', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Instructions saved.' })).toBeVisible();
  await send(page, 'Hi');
  await expect(assistantMessages(page).last()).toContainText('Be brief.');
  await expect(assistantMessages(page).last()).toContainText('You are Parley');
});

test('the Built-in demo takes Instructions (no Temperature or Max output tokens): {{systemPrompt}} shows them', async ({ page }) => {
  await page.goto('/');
  await useScript(page, { steps: [{ text: 'System: {{systemPrompt}}' }], chunkSize: 400, chunkDelayMs: 5 });
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Editing Built-in demo', exact: true })).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Temperature', exact: true })).toHaveCount(0);
  await expect(page.getByRole('spinbutton', { name: 'Max output tokens', exact: true })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Instructions', exact: true }).fill(PROFILE_INSTRUCTIONS);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  // Kept: Settings opened again shows them.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Instructions', exact: true })).toHaveValue(PROFILE_INSTRUCTIONS);
  await newConversation(page);
  await send(page, 'Hi');
  await expect(assistantMessages(page).last()).toContainText(PROFILE_INSTRUCTIONS);
  await expect(assistantMessages(page).last()).toContainText('You are Parley');
});

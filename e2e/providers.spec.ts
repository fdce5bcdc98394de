import type { Request } from '@playwright/test';
import type { RecordedRequest } from '../tests/server/provider-server';
import { assistantMessages, userMessages } from './fixtures';
import {
  addProfile,
  chatRequests,
  conversationWithProfile,
  expect,
  expectChatRequestCount,
  pageText,
  profileFor,
  profileForm,
  requestMessages,
  test,
  type ProviderLabel,
} from './provider-helpers';
import { questionForm, questionGroup, questionSummary, submitButton } from './question-helpers';

// Real models from the browser: each provider kind, set up in Settings, asks a question through its own wire format,
// survives a reload while the question waits, and gets the answer back exactly once in its own format.

/** The question the server's model asks; the non-ASCII option makes OpenAI's arguments split inside a \u escape. */
const QUESTION = {
  header: 'Theme',
  question: 'Which theme should the report use?',
  options: [{ label: 'Crème', description: 'Warm paper tones' }, { label: 'Slate' }],
  custom: false,
};
const ASKING_TEXT = 'Let me ask one thing first.';
const FINAL_TEXT = 'Noted: the report will use the Crème theme.';
const FINAL_USAGE = { inputTokens: 321, outputTokens: 54 };
const PROMPT = 'Plan the quarterly report';
const ANSWERED_RESULT = `User has answered your questions: "${QUESTION.question}"="Crème". You can now continue with the user's answers in mind.`;
const LISTED_MODELS = ['model-alpha', 'model-beta'];

/** The text of a tool result, whether the provider sent it as a string or as content parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : String((part as { text?: unknown }).text ?? ''))).join('');
  return JSON.stringify(content ?? '');
}

/** Checks the second model call carries the question call and its answer exactly once, in OpenAI's format. */
function expectOpenAiToolExchange(request: RecordedRequest | undefined, callId: string): void {
  const messages = requestMessages(request) as Array<{ role: string; content?: unknown; tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
  const calls = messages.flatMap((message, index) => (message.tool_calls ?? []).filter((call) => call.id === callId).map((call) => ({ call, index, message })));
  expect(calls, 'assistant tool calls with the question call id').toHaveLength(1);
  const [{ call, index, message }] = calls as [(typeof calls)[number]];
  expect(message.role).toBe('assistant');
  expect(contentText(message.content)).toContain(ASKING_TEXT);
  expect(call.type).toBe('function');
  expect(call.function.name).toBe('question');
  expect(JSON.parse(call.function.arguments)).toMatchObject({ questions: [{ question: QUESTION.question }] });
  const results = messages.filter((candidate) => candidate.role === 'tool' && candidate.tool_call_id === callId);
  expect(results, 'tool messages answering the question call').toHaveLength(1);
  expect(contentText(results[0]!.content)).toContain('User has answered your questions');
  expect(contentText(results[0]!.content)).toContain(ANSWERED_RESULT);
  // The result follows its call at once: providers reject anything in between.
  expect(messages[index + 1]).toBe(results[0]);
  expect(messages.filter((candidate) => candidate.role === 'tool'), 'all tool messages').toHaveLength(1);
}

/** Same, in Anthropic's Messages format: an assistant tool_use part, then a user tool_result part with its id. */
function expectAnthropicToolExchange(request: RecordedRequest | undefined, toolUseId: string): void {
  type Part = { type: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown; text?: string };
  const messages = requestMessages(request);
  const partsOf = (role: string) =>
    messages.flatMap((message, index) => (message.role === role && Array.isArray(message.content) ? (message.content as Part[]).map((part) => ({ part, index })) : []));
  const uses = partsOf('assistant').filter(({ part }) => part.type === 'tool_use');
  expect(uses, 'tool_use parts').toHaveLength(1);
  expect(uses[0]!.part).toMatchObject({ id: toolUseId, name: 'question', input: { questions: [{ question: QUESTION.question }] } });
  const assistantText = partsOf('assistant').filter(({ part, index }) => index === uses[0]!.index && part.type === 'text');
  expect(assistantText.map(({ part }) => part.text).join('')).toContain(ASKING_TEXT);
  const results = partsOf('user').filter(({ part }) => part.type === 'tool_result');
  expect(results, 'tool_result parts').toHaveLength(1);
  expect(results[0]!.part.tool_use_id).toBe(toolUseId);
  expect(contentText(results[0]!.part.content)).toContain('User has answered your questions');
  expect(contentText(results[0]!.part.content)).toContain(ANSWERED_RESULT);
  expect(results[0]!.index).toBe(uses[0]!.index + 1);
}

const PROVIDERS: ReadonlyArray<{ label: ProviderLabel; callId: string; chatPath: string }> = [
  { label: 'OpenAI-compatible', callId: 'call_parley_theme', chatPath: '/v1/chat/completions' },
  { label: 'Anthropic', callId: 'toolu_parley_theme', chatPath: '/v1/messages' },
];

for (const { label, callId, chatPath } of PROVIDERS) {
  test(`${label}: a profile made in Settings asks a question, survives a reload, and gets its answer once`, async ({ page, context, provider }) => {
    // Every request the browser makes (page and worker), to check where the key went.
    const browserRequests: Request[] = [];
    context.on('request', (request) => void browserRequests.push(request));
    await page.goto('/');
    const profile = profileFor(provider, label);

    // Settings: Test connection lists the server's models, then Save stores the profile with its key masked.
    provider.enqueue({ models: LISTED_MODELS });
    const testResult = await addProfile(page, profile, { testConnection: true });
    expect(testResult).toContain('Connected. 2 models available.');
    const datalist = await profileForm(page).model.evaluate((input) =>
      [...((input as HTMLInputElement).list?.options ?? [])].map((option) => option.value),
    );
    expect(datalist).toEqual(LISTED_MODELS);
    expect(await pageText(page)).not.toContain(profile.apiKey);

    // The conversation uses the profile; the model's first answer streams text, then a question call in pieces.
    provider.enqueue(
      { text: ASKING_TEXT, toolCalls: [{ id: callId, name: 'question', args: { questions: [QUESTION] } }] },
      { text: FINAL_TEXT, usage: FINAL_USAGE },
    );
    await conversationWithProfile(page, profile.name);
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill(PROMPT);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(questionForm(page)).toBeVisible();
    await expect(assistantMessages(page).first()).toContainText(ASKING_TEXT);
    await expect(questionGroup(page, QUESTION)).toBeVisible();

    // A reload while the question waits brings the same form back and calls nobody.
    await page.reload();
    await expect(questionForm(page)).toBeVisible();
    await expect(assistantMessages(page)).toHaveCount(1);
    await expect(assistantMessages(page).first()).toContainText(ASKING_TEXT);
    await expect(userMessages(page)).toHaveCount(1);
    expect(chatRequests(provider)).toHaveLength(1);

    await questionGroup(page, QUESTION).getByRole('radio', { name: 'Crème', exact: true }).click();
    await submitButton(page).click();
    await expect(questionSummary(page)).toContainText('Crème');
    const reply = assistantMessages(page).nth(1);
    await expect(reply).toHaveAttribute('data-status', 'complete');
    await expect(reply).toContainText(FINAL_TEXT);
    await expect(reply).toContainText(`${FINAL_USAGE.inputTokens} tokens in`);
    await expect(reply).toContainText(`${FINAL_USAGE.outputTokens} tokens out`);
    await expect(assistantMessages(page)).toHaveCount(2);

    // What the server received: two model calls on this provider's endpoint, the second with the exchange once.
    await expectChatRequestCount(provider, 2);
    const [first, second] = chatRequests(provider);
    for (const request of [first, second]) expect(request!.path).toBe(chatPath);
    expect((first!.body as { model?: string }).model).toBe(profile.model);
    expect(JSON.stringify(first!.body)).toContain('"question"');
    const userPrompts = requestMessages(second).filter((message) => message.role === 'user' && contentText(message.content).includes(PROMPT));
    expect(userPrompts, 'the user prompt in the second call').toHaveLength(1);
    if (label === 'Anthropic') expectAnthropicToolExchange(second, callId);
    else expectOpenAiToolExchange(second, callId);

    // The key went to the server in this provider's header, on every call, and nowhere else.
    const authenticated = provider.requests.filter((request) => request.method !== 'OPTIONS');
    expect(authenticated.map((request) => request.path)).toEqual(['/v1/models', chatPath, chatPath]);
    for (const request of authenticated) {
      if (label === 'Anthropic') {
        expect(request.headers['x-api-key']).toBe(profile.apiKey);
        expect(request.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
        expect(request.headers.authorization).toBeUndefined();
      } else {
        expect(request.headers.authorization).toBe(`Bearer ${profile.apiKey}`);
        expect(request.headers['x-api-key']).toBeUndefined();
      }
    }
    const carriesKey = async (request: Request) => {
      const headers = await request.allHeaders();
      return [request.url(), request.postData() ?? '', ...Object.values(headers)].some((text) => text.includes(profile.apiKey));
    };
    const withKey = [];
    for (const request of browserRequests) if (await carriesKey(request)) withKey.push(request.url());
    expect(withKey.length, 'browser requests carrying the key').toBeGreaterThan(0);
    for (const url of withKey) expect(url.startsWith(`${provider.url}/v1/`), `the key went to ${url}`).toBe(true);
    expect(await pageText(page)).not.toContain(profile.apiKey);
  });
}

test('the chat header lists the saved profile and the choice survives a reload', async ({ page, provider }) => {
  await page.goto('/');
  const profile = profileFor(provider, 'Anthropic', 'Claude at home');
  await addProfile(page, profile);
  await expect(page.getByText(profile.name, { exact: true })).toBeVisible();
  await conversationWithProfile(page, profile.name);
  await page.reload();
  const select = page.getByRole('combobox', { name: 'Model profile', exact: true });
  await expect(select.locator('option:checked')).toHaveText(profile.name);
  // Back in Settings the stored key shows only masked.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: `Edit ${profile.name}`, exact: true }).click();
  await expect(profileForm(page).apiKey).toHaveValue('');
  await expect(profileForm(page).apiKey).toHaveAttribute('placeholder', `••••${profile.apiKey.slice(-4)}`);
  expect(await pageText(page)).not.toContain(profile.apiKey);
});

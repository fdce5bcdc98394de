import type { Page } from '@playwright/test';
import { startModelServer, type ModelServer } from '../tests/fixtures/model-server';
import { writeTinyGguf } from '../tests/fixtures/tiny-gguf';
import { assistantMessages, newConversation, send } from './fixtures';
import { addProfile, chatRequests, expect, expectChatRequestCount, openSettings, profileFor, profileForm, test } from './provider-helpers';

// Settings and profiles as a new user meets them: the click on Save that blurs the Model URL
// lands, a profile just added is used by new conversations, the form says what it edits, and a Model URL is checked.

let modelServer: ModelServer;
test.beforeAll(async () => {
  modelServer = await startModelServer();
});
test.afterAll(async () => {
  await modelServer.close();
});

const exact = { exact: true } as const;

function modelUrl(page: Page) {
  return page.getByRole('textbox', { name: 'Model URL', ...exact });
}

/** Settings' profile names, top to bottom. */
function profileNames(page: Page) {
  return page.locator('.profile-list .profile-name');
}

async function startInBrowserProfile(page: Page, name: string) {
  await openSettings(page);
  await page.getByRole('button', { name: 'Add profile', ...exact }).click();
  await profileForm(page).provider.selectOption({ label: 'In-browser' });
  await profileForm(page).name.fill(name);
}

for (const width of [1280, 360]) {
  test(`${width} px: typing a Model URL and clicking Save at once saves the profile (21.1)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    await startInBrowserProfile(page, 'Typed');
    // No blur first: the click on Save is what takes the focus from the field.
    await modelUrl(page).fill(`${modelServer.url}/tiny.gguf`);
    await profileForm(page).save.click();
    await expect(page.getByText('Saved.', exact)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Typed', ...exact })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Download is offered, below Save, so appearing never moved it.
    const download = page.getByRole('button', { name: 'Download', ...exact });
    await expect(download).toBeVisible();
    const saveBox = await profileForm(page).save.boundingBox();
    const downloadBox = await download.boundingBox();
    expect(downloadBox!.y).toBeGreaterThan(saveBox!.y + saveBox!.height);
    // And the download part's first line keeps its distance from Save (21.19: "Save touches the status text").
    const sizeBox = await page.getByText(/^Download size:/).boundingBox();
    expect(sizeBox!.y - (saveBox!.y + saveBox!.height)).toBeGreaterThanOrEqual(8);
  });
}

test('a new in-browser profile starts on the first listed model, whose URL it shows, not on "Other model"', async ({ page }) => {
  await page.goto('/');
  await startInBrowserProfile(page, 'Listed');
  const model = page.getByRole('combobox', { name: 'Model', ...exact });
  await expect(model.locator('option:checked')).toHaveText(/^Qwen3 0\.6B/);
  await expect(modelUrl(page)).toHaveValue(/\/Qwen3-0\.6B-Q4_K_M\.gguf$/);
  await profileForm(page).save.click();
  await expect(page.getByRole('button', { name: 'Edit Listed', ...exact })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a profile just added is used by new conversations; older ones keep theirs (21.2)', async ({ page, provider }) => {
  await page.goto('/');
  const before = await newConversation(page);
  await send(page, 'Who is there?');
  await expect(assistantMessages(page).first()).toContainText('scripted demo');
  const profile = profileFor(provider, 'OpenAI-compatible', 'Home server');
  await addProfile(page, profile);
  await expect(page.getByText('New conversations will use Home server.', exact)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use Home server', ...exact })).toHaveCount(0);

  provider.enqueue({ text: 'Hello from the home server.' });
  await newConversation(page);
  await send(page, 'Who answers?');
  await expect(assistantMessages(page).first()).toContainText('Hello from the home server.');
  await expectChatRequestCount(provider, 1);

  // The conversation made before still talks to the Built-in demo: nothing more reaches the server.
  await page.evaluate((id) => (location.hash = `#/c/${id}`), before);
  await expect(assistantMessages(page).first()).toContainText('scripted demo');
  await send(page, 'And here?');
  await expect(assistantMessages(page)).toHaveCount(2);
  expect(chatRequests(provider)).toHaveLength(1);
});

test('the form says what it edits, profiles keep a stable order, and the demo script can be restored (21.3)', async ({ page, provider }) => {
  await page.goto('/');
  await openSettings(page);
  await expect(page.getByRole('heading', { name: 'Editing Built-in demo', ...exact })).toBeVisible();
  await profileForm(page).provider.selectOption({ label: 'OpenAI-compatible' });
  await expect(page.getByRole('heading', { name: 'New profile', ...exact })).toBeVisible();

  await addProfile(page, profileFor(provider, 'OpenAI-compatible', 'Zulu'));
  await expect(page.getByRole('heading', { name: 'Editing Zulu', ...exact })).toBeVisible();
  await page.getByRole('button', { name: 'Add profile', ...exact }).click();
  await expect(page.getByRole('heading', { name: 'New profile', ...exact })).toBeVisible();
  await addProfile(page, profileFor(provider, 'Anthropic', 'Alpha'));
  // The default first, then by name.
  await expect(profileNames(page)).toHaveText(['Alpha', 'Built-in demo', 'Zulu']);
  await page.getByRole('button', { name: 'Use Zulu', ...exact }).click();
  await expect(profileNames(page)).toHaveText(['Zulu', 'Alpha', 'Built-in demo']);

  await page.getByRole('button', { name: 'Edit Built-in demo', ...exact }).click();
  await expect(page.getByRole('heading', { name: 'Editing Built-in demo', ...exact })).toBeVisible();
  const script = page.getByRole('textbox', { name: 'Script', ...exact });
  await script.fill('[{ "text": "mine" }]');
  await profileForm(page).save.click();
  await expect(page.getByText('Saved.', exact)).toBeVisible();
  await page.getByRole('button', { name: 'Restore the demo script', ...exact }).click();
  await expect(script).toHaveValue(/scripted demo/);
  await page.reload();
  await openSettings(page);
  await page.getByRole('button', { name: 'Edit Built-in demo', ...exact }).click();
  await expect(page.getByRole('textbox', { name: 'Script', ...exact })).toHaveValue(/scripted demo/);
});

test('a Model URL that cannot be fetched is refused; a Hugging Face page URL is rewritten; a custom model shows its size (21.4)', async ({ page }) => {
  // No test reaches the real Hugging Face: its HEAD for the size fails here, as offline.
  await page.route('https://huggingface.co/**', (route) => route.abort());
  await page.goto('/');
  await startInBrowserProfile(page, 'Checked');
  for (const refused of ['not a url', 'ftp://example.com/model.gguf']) {
    await modelUrl(page).fill(refused);
    await profileForm(page).save.click();
    await expect(page.getByRole('alert').first()).toContainText('This Model URL cannot be downloaded');
    await expect(page.getByText('Saved.', exact)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit Checked', ...exact })).toHaveCount(0);
  }

  await modelUrl(page).fill('https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/blob/main/Qwen3-0.6B-Q4_K_M.gguf');
  await modelUrl(page).blur();
  await expect(modelUrl(page)).toHaveValue('https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q4_K_M.gguf');
  await expect(page.getByText('Changed the Hugging Face page address (/blob/) to its download address (/resolve/).', exact)).toBeVisible();

  const url = `${modelServer.url}/tiny.gguf`;
  await modelUrl(page).fill(url);
  await profileForm(page).save.click();
  await expect(page.getByText('Saved.', exact)).toBeVisible();
  await expect(page.getByText(`Download size: ${Math.round(modelServer.model.length / 1000)} KB.`, exact)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download', ...exact })).toBeVisible();
  // The size came from a HEAD: nothing was downloaded.
  expect(modelServer.requests.filter((request) => request.path === '/tiny.gguf' && request.method === 'HEAD').length).toBeGreaterThan(0);
  expect(modelServer.requests.filter((request) => request.path === '/tiny.gguf' && request.method === 'GET')).toHaveLength(0);
});

test('"Model file" is drawn as the app\'s buttons, in light and dark, is named by its label, and picks a model by keyboard (21.19)', async ({ page }) => {
  await page.goto('/');
  await startInBrowserProfile(page, 'From a file');
  const picker = page.getByRole('button', { name: 'Model file', ...exact });
  /** The look of the picker's button and of one of the app's plain buttons, side by side. */
  const looks = () =>
    page.evaluate(() => {
      const look = (style: CSSStyleDeclaration) => [style.backgroundColor, style.borderTopColor, style.borderTopWidth, style.borderRadius, style.color, style.minHeight].join(' ');
      const input = document.querySelector<HTMLInputElement>('input[type="file"][accept=".gguf"]')!;
      const button = [...document.querySelectorAll<HTMLButtonElement>('button.button')].find((candidate) => candidate.textContent === 'Export conversations')!;
      return { picker: look(getComputedStyle(input, '::file-selector-button')), button: look(getComputedStyle(button)) };
    });
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await looks();
  expect(light.picker).toBe(light.button);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => (await looks()).button).not.toBe(light.button);
  const dark = await looks();
  expect(dark.picker).toBe(dark.button);

  // By keyboard alone: Tab from "Model URL" reaches it, Space opens the file chooser, the chosen model is stored.
  await modelUrl(page).focus();
  await page.keyboard.press('Tab');
  await expect(picker).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles({ name: 'keyboard.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(writeTinyGguf()) });
  await expect(page.locator('.local-model').getByRole('status')).toContainText('Ready (stored on this device).');
});

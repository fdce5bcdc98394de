import { expect, test, type Locator, type Page } from '@playwright/test';
import { assistantMessages, messageBox, messageLog, newConversation, send, useScript, userMessages } from './fixtures';
import { PHONE } from './phone-helpers';
import { ASKING_TEXT, STANDARD_QUESTIONS, completeReply, questionForm } from './question-helpers';

// The chat screen on a phone: the conversation gets the height, the keyboard never covers the
// composer, the header's tools sit in one menu, and nothing floats over a control.

/** A reply long enough to fill the log, then the standard question form. */
const LONG_REPLY = Array.from({ length: 30 }, (_, index) => `Paragraph ${index + 1}: a line of the conversation.`).join('\n\n');

async function openLongConversation(page: Page): Promise<void> {
  await page.goto('/');
  await useScript(page, {
    steps: [{ text: LONG_REPLY }, { text: ASKING_TEXT, toolCalls: [{ name: 'question', args: { questions: STANDARD_QUESTIONS } }] }],
    chunkSize: 400,
    chunkDelayMs: 5,
  });
  await newConversation(page);
  await send(page, 'Tell me a lot');
  await completeReply(page, 0);
}

/** Whether a paragraph's text ends at its right edge and leaves room on the left: right-to-left layout. */
function hugsTheRight(paragraph: Locator): Promise<boolean> {
  return paragraph.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const text = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return box.right - text.right < 2 && text.left - box.left > 8;
  });
}

/**
 * The keyboard took the bottom of the screen: the composer and at least 200 px of the log are in view. Measured until it
 * holds (the app follows the new viewport's height in the next frames; a box read at once was the old layout's).
 */
async function expectComposerAndConversation(page: Page, height: number, what: string): Promise<void> {
  await expect(async () => {
    const composer = await page.locator('form.composer').boundingBox();
    const log = await messageLog(page).boundingBox();
    expect(composer!.y, `${what}: composer top`).toBeGreaterThanOrEqual(0);
    expect(composer!.y + composer!.height, `${what}: composer bottom above the keyboard`).toBeLessThanOrEqual(height);
    const visibleLog = Math.min(log!.y + log!.height, composer!.y, height) - Math.max(log!.y, 0);
    expect(visibleLog, `${what}: px of conversation in view`).toBeGreaterThanOrEqual(200);
  }).toPass();
  await expect(messageBox(page)).toBeInViewport();
}

test.describe('at 360 px with touch', () => {
  test.use({ ...PHONE });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`with the keyboard open (360×420) the composer and 200 px of conversation stay visible (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await openLongConversation(page);
      await messageBox(page).tap();
      await page.setViewportSize({ width: 360, height: 420 });
      await expectComposerAndConversation(page, 420, 'after a reply');

      // A four-line draft grows the composer, but not over the conversation.
      await messageBox(page).fill('one\ntwo\nthree\nfour');
      await expectComposerAndConversation(page, 420, 'with a four-line draft');
      await messageBox(page).fill('');

      // With a question waiting (the composer then has a hint), too.
      await send(page, 'Ask me');
      await expect(questionForm(page)).toBeVisible();
      await messageBox(page).tap();
      await expectComposerAndConversation(page, 420, 'with a question waiting');
      expect(await page.evaluate(() => document.scrollingElement!.scrollTop), 'the page itself never scrolled').toBe(0);
    });
  }

  test('the header keeps the title and status; model profile, Rename and Delete are in "Conversation actions"', async ({ page }) => {
    await page.goto('/');
    const conversationId = await newConversation(page);
    const actions = page.getByRole('button', { name: 'Conversation actions', exact: true });
    const rename = page.getByRole('button', { name: 'Rename conversation', exact: true });
    const remove = page.getByRole('button', { name: 'Delete conversation', exact: true });
    const profile = page.getByRole('combobox', { name: 'Model profile', exact: true });
    await expect(actions).toHaveAttribute('aria-expanded', 'false');
    await expect(rename).toBeHidden();
    await expect(remove).toBeHidden();
    await expect(profile).toBeHidden();
    const header = await page.locator('.chat-header').boundingBox();
    expect(header!.height, 'a compact header').toBeLessThanOrEqual(64);

    await actions.tap();
    await expect(actions).toHaveAttribute('aria-expanded', 'true');
    await expect(profile).toBeVisible();
    await expect(remove).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(profile).toBeHidden();
    await expect(actions).toBeFocused();

    // Delete asks in a dialog; Cancel keeps the menu and its focus.
    await actions.tap();
    await remove.tap();
    await page.getByRole('button', { name: 'Cancel', exact: true }).tap();
    await expect(remove).toBeFocused();
    // A tap elsewhere closes the menu: near the log's bottom, which the open menu (as tall as half the screen) leaves free.
    const logBox = (await messageLog(page).boundingBox())!;
    await messageLog(page).tap({ position: { x: 10, y: logBox.height - 10 } });
    await expect(remove).toBeHidden();

    await actions.tap();
    await rename.tap();
    await expect(rename).toBeHidden();
    await page.getByRole('textbox', { name: 'Conversation title', exact: true }).fill('Renamed on a phone');
    await page.getByRole('button', { name: 'Save title', exact: true }).tap();
    await expect(page.getByRole('heading', { name: 'Renamed on a phone' })).toBeVisible();
    expect(conversationId).not.toBe('');
  });

  test('"Conversation instructions" closes the menu and gives the instructions the header’s width', async ({ page }) => {
    await page.goto('/');
    await newConversation(page);
    const actions = page.getByRole('button', { name: 'Conversation actions', exact: true });
    await actions.tap();
    await page.getByRole('button', { name: 'Conversation instructions', exact: true }).tap();
    const field = page.getByRole('textbox', { name: 'Instructions for this conversation', exact: true });
    await expect(field).toBeVisible();
    await expect(actions).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('button', { name: 'Delete conversation', exact: true })).toBeHidden();
    await expect.poll(async () => (await field.boundingBox())?.width ?? 0, 'the field keeps most of 360 px').toBeGreaterThanOrEqual(300);
    // The title keeps its line above the panel, beside the actions button.
    const [title, toggle] = [await page.locator('.chat-title').boundingBox(), await actions.boundingBox()];
    expect(title!.width, 'the title is not squeezed').toBeGreaterThanOrEqual(200);
    expect((await field.boundingBox())!.y, 'the panel is under the title').toBeGreaterThan(toggle!.y + toggle!.height - 1);
    // The instructions' own Close ("Ready to work offline." may show a Close of its own meanwhile).
    await page.locator('form.conversation-instructions').getByRole('button', { name: 'Close', exact: true }).tap();
    await expect(field).toHaveCount(0);
  });

  test('while a question waits, "Message" keeps most of the width', async ({ page }) => {
    await openLongConversation(page);
    await send(page, 'Ask me');
    await expect(questionForm(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await expect.poll(async () => (await messageBox(page).boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(300);
    // Attach, Stop and Send are still there, each a finger's size, inside the screen.
    for (const name of ['Attach files', 'Stop', 'Send']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box!.x, `${name} inside the screen`).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${name} inside the screen`).toBeLessThanOrEqual(360);
      expect(Math.min(box!.width, box!.height), `${name} is 44 px`).toBeGreaterThanOrEqual(43.5);
    }
  });

  test('the "Conversations" button is the menu icon, named by its hidden word', async ({ page }) => {
    await page.goto('/');
    const menu = page.getByRole('button', { name: 'Conversations', exact: true });
    await expect(menu).toBeVisible();
    await expect(menu.locator('svg.icon')).toBeVisible();
    // The word is there for assistive technology (and is the name), out of sight.
    const word = menu.locator('.label-text');
    await expect(word).toHaveText('Conversations');
    await expect.poll(async () => (await word.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    const box = await menu.boundingBox();
    expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(43.5);
  });

  test('the "Ready to work offline" note covers no control and moves none', async ({ page }) => {
    await page.goto('/');
    const newButton = page.getByRole('button', { name: 'New conversation', exact: true });
    const settings = page.getByRole('button', { name: 'Settings', exact: true });
    const menu = page.getByRole('button', { name: 'Conversations', exact: true });
    await expect(newButton).toBeVisible();
    // The app has taken the shell's place (the shell's search field stays disabled until then): measured before, a box
    // was read while the shell's button was being replaced, and came back null on a loaded CI run.
    await expect(page.getByRole('searchbox', { name: 'Search conversations', exact: true })).toBeEnabled();
    const before = [await newButton.boundingBox(), await settings.boundingBox(), await menu.boundingBox()];
    await expect(page.getByRole('status').filter({ hasText: 'Ready to work offline' })).toBeVisible();
    expect([await newButton.boundingBox(), await settings.boundingBox(), await menu.boundingBox()]).toEqual(before);
    // What a tap at each control's centre hits is that control.
    for (const control of [newButton, settings, menu]) {
      const hit = await control.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return !!top && element.contains(top);
      });
      expect(hit, `${await control.getAttribute('aria-label') ?? await control.innerText()} is not covered`).toBe(true);
    }
  });

  test('messages and the composer take the direction of their own text', async ({ page }) => {
    await page.goto('/');
    await useScript(page, [{ text: 'مرحبا! كيف يمكنني مساعدتك؟' }]);
    await newConversation(page);
    await messageBox(page).fill('שלום, מה שלומך?');
    await expect(messageBox(page)).toHaveAttribute('dir', 'auto');
    expect(await messageBox(page).evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await page.getByRole('button', { name: 'Send', exact: true }).tap();
    // Emptied, the composer is left to right again (its placeholder is English).
    await expect(messageBox(page)).toHaveValue('');
    expect(await messageBox(page).evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
    const mine = userMessages(page).first();
    await expect(mine).toHaveAttribute('dir', 'auto');
    expect(await mine.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    // A streamed reply: each paragraph is laid out right to left (its text hugs the right edge).
    const reply = await completeReply(page, 0);
    expect(await hugsTheRight(reply.locator('p').first())).toBe(true);
    await send(page, 'And now in English');
    expect(await userMessages(page).last().evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
    expect(await hugsTheRight(userMessages(page).last().locator('p'))).toBe(false);
  });
});

test('the page declares the keyboard behaviour and a theme colour for light and dark', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', /interactive-widget=resizes-content/);
  await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', /viewport-fit=cover/);
  for (const [scheme, colour] of [['light', '#ffffff'], ['dark', '#1b1f2a']] as const) {
    await expect(page.locator(`meta[name="theme-color"][media="(prefers-color-scheme: ${scheme})"]`)).toHaveAttribute('content', colour);
    // The theme colour continues the app bar into the status bar.
    await page.emulateMedia({ colorScheme: scheme });
    const background = await page.locator('header.app-bar').evaluate((element) => getComputedStyle(element).backgroundColor);
    const expected = await page.evaluate((hex) => {
      const probe = document.createElement('div');
      probe.style.color = hex;
      document.body.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    }, colour);
    expect(background).toBe(expected);
  }
});

test('on a wide screen the header shows its tools inline, without the actions menu', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await newConversation(page);
  await expect(page.getByRole('button', { name: 'Conversation actions', exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Rename conversation', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete conversation', exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Model profile', exact: true })).toBeVisible();
});

for (const width of [360, 1280]) {
  test(`at ${width} px an error alert moves nothing the person reads or taps, and is announced`, async ({ page }) => {
    await page.setViewportSize({ width, height: 740 });
    await page.goto('/');
    await useScript(page, [{ text: 'A reply to read while an error is shown.' }]);
    const conversationId = await newConversation(page);
    await send(page, 'Hello');
    await completeReply(page, 0);
    await page.goto('/#/');
    await expect(page.getByRole('link', { name: 'Hello', exact: true })).toBeVisible();
    // A link to a conversation that is gone (deleted since it was bookmarked): the worker says so, an alert, and home.
    const watched = [page.getByRole('banner'), page.getByRole('navigation', { name: 'Conversations', exact: true }), page.getByRole('link', { name: 'Hello', exact: true })];
    const before = await Promise.all(watched.map((element) => element.boundingBox()));
    await page.goto(`/#/c/${conversationId.replace(/.$/, (last) => (last === '0' ? '1' : '0'))}`);
    await expect(page.getByRole('alert').first()).toHaveText(/^This conversation no longer exists\./);
    await expect(page).toHaveURL(/#\/$/);
    const after = await Promise.all(watched.map((element) => element.boundingBox()));
    expect(after.map((box) => box && Math.round(box.y)), 'tops after the alert').toEqual(before.map((box) => box && Math.round(box.y)));
    expect(after.map((box) => box && Math.round(box.height)), 'heights after the alert').toEqual(before.map((box) => box && Math.round(box.height)));
    // Over the page, inside the screen, and dismissible.
    const alert = await page.getByRole('alert').first().boundingBox();
    expect(alert!.x).toBeGreaterThanOrEqual(0);
    expect(alert!.x + alert!.width).toBeLessThanOrEqual(width);
    for (const alert of await page.getByRole('alert').all()) await alert.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
}

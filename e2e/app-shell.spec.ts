import { expect, test, type Page } from '@playwright/test';

// The app shell: index.html carries the first screen's frame, painted before any of the app's JavaScript
// has run; its inline script gives it the theme, the route's layout and the language; a click on it is done once the
// app runs. Each test holds the app's code back (its main chunk) to look at the shell alone, then lets it through.

/** Holds every main-*.js (the app's and the worker's entry chunks) until the returned function is called. */
async function holdTheApp(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

// No service worker: what it serves from its cache would pass the hold by.
test.use({ serviceWorkers: 'block' });

const theAppRuns = (page: Page) => expect(page.getByRole('searchbox', { name: 'Search conversations', exact: true })).toBeEnabled();

test('the first screen is painted before the app runs, and a click on "New conversation" made then is done', async ({ page }) => {
  const policyErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) policyErrors.push(message.text());
  });
  const release = await holdTheApp(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const newConversation = page.getByRole('button', { name: 'New conversation', exact: true });
  await expect(newConversation).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();
  // Only the app searches: the shell's field waits, disabled, rather than lose what is typed into it.
  await expect(page.getByRole('searchbox', { name: 'Search conversations', exact: true })).toBeDisabled();
  await newConversation.click();
  release();
  await expect(page).toHaveURL(/#\/c\/[^/]+$/);
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New conversation', exact: true })).toHaveCount(1);
  expect(policyErrors, 'the shell\'s inline script is allowed by its hash').toEqual([]);
});

// The press that straddles the swap: the mouse goes down on the shell's button and comes up on the app's. The browser
// clicks neither (the element pressed is gone); the app finishes the press, once, as a click on its own button.
/** Presses the mouse on the shell's button `selector` while the app is held, then lets the app take the shell's place. */
async function pressThroughTheSwap(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const release = await holdTheApp(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  const box = (await page.locator(`.app-shell ${selector}`).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  release();
  await theAppRuns(page);
  await expect(page.locator('.app-shell')).toHaveCount(0);
  return box;
}

/** One conversation was made, and it is kept: listed once, before and after a reload. */
async function oneConversationKept(page: Page): Promise<void> {
  await expect(page).toHaveURL(/#\/c\/[^/]+$/);
  const listed = page.getByRole('navigation', { name: 'Conversations', exact: true }).getByRole('link');
  await expect(listed).toHaveCount(1);
  await page.reload();
  await expect(listed).toHaveCount(1);
}

test('a press begun on the shell and released once the app runs is one click', async ({ page }) => {
  await pressThroughTheSwap(page, '.new-conversation');
  await page.mouse.up();
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  await oneConversationKept(page);
});

test('a press begun on the shell and released away from the button clicks nothing', async ({ page }) => {
  const box = await pressThroughTheSwap(page, '.settings-button');
  await page.mouse.move(box.x - 200, box.y + 300);
  await page.mouse.up();
  await expect(page).not.toHaveURL(/#\/settings$/);
  // Then an ordinary click on the app's own button is one click, not two.
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await oneConversationKept(page);
});

test('the keyboard focus on the shell\'s "New conversation" moves to the app\'s', async ({ page }) => {
  const release = await holdTheApp(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'New conversation', exact: true }).focus();
  await expect(page.locator('.app-shell .new-conversation')).toBeFocused();
  release();
  await theAppRuns(page);
  await expect(page.getByRole('button', { name: 'New conversation', exact: true })).toBeFocused();
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the shell is painted in the browser\'s language, and the app keeps it', async ({ page }) => {
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('button', { name: '新建对话', exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: '对话', exact: true })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: '搜索对话', exact: true })).toHaveAttribute('placeholder', '搜索对话');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    release();
    await expect(page.getByRole('searchbox', { name: '搜索对话', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: '新建对话', exact: true })).toBeVisible();
  });
});

test('the shell has the chosen theme and the route\'s layout before the app runs', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await theAppRuns(page);
  await page.evaluate(() => localStorage.setItem('parley-theme', 'dark'));
  await page.evaluate(() => (location.hash = '#/settings'));
  const release = await holdTheApp(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('.app')).toHaveAttribute('data-route', 'settings');
  // The phone's "Conversations" toggle (hidden at this width) says the list is closed, as the app's does outside home.
  await expect(page.locator('.nav-toggle')).toHaveAttribute('aria-expanded', 'false');
  release();
  await expect(page.getByRole('combobox', { name: 'Theme', exact: true })).toHaveValue('dark');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test('a tap on the shell\'s "Settings" opens Settings once the app runs', async ({ page }) => {
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('button', { name: 'New conversation', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Settings', exact: true }).tap();
    release();
    await expect(page).toHaveURL(/#\/settings$/);
    await expect(page.getByRole('combobox', { name: 'Theme', exact: true })).toBeVisible();
  });
});

// The shell is rendered from the app's own components, but without the app's state: whatever the app adds around them
// (a banner, the list) must not move what the user sees (or aims at) the moment it takes over. Each named part is where
// the shell had it.
for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
  test(`the app takes the shell's place without moving anything at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const parts = [
      page.getByRole('button', { name: 'New conversation', exact: true }),
      page.getByRole('button', { name: 'Settings', exact: true }),
      page.getByRole('navigation', { name: 'Conversations', exact: true }),
      page.getByRole('searchbox', { name: 'Search conversations', exact: true }),
      page.getByRole('banner'),
    ];
    // Where each part starts and how wide it is; the list's height follows what it lists (with nothing stored, a phone's
    // home gives the welcome text the room below it), so only the others' heights are compared.
    const boxes = () =>
      Promise.all(
        parts.map(async (part, index) => {
          if ((await part.count()) !== 1) return `${String(part)}: ${await part.count()} found`;
          const box = (await part.boundingBox())!;
          return index === 2 ? { x: box.x, y: box.y, width: box.width } : box;
        }),
      );
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect(parts[0]!).toBeVisible();
    const shell = await boxes();
    release();
    await theAppRuns(page);
    await expect(page.locator('.app-shell')).toHaveCount(0);
    const app = await boxes();
    expect(app).toEqual(shell);
  });
}

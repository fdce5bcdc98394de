import { expect, test, type Page, type Worker } from '@playwright/test';
import { newConversation, send, useScript, waitForServiceWorker } from './fixtures';

// Being called back: with notifications on, a request that arrives while no tab of Parley is visible is
// announced by a system notification; clicking it opens that conversation; the app badge counts what waits; an
// answered request's notification goes away. A notification says only what waits, unless the user chose to see the
// conversation's title: anyone who sees the screen reads it.

const QUESTION = { text: 'One question.', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: ['Beach', 'City'] }] } }] };

/** Records the app badge as the page sets it (Chromium has the Badging API only for installed apps on some systems). */
async function recordBadge(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: Array<number> = [];
    (window as unknown as { badgeCalls: number[] }).badgeCalls = calls;
    Object.defineProperty(navigator, 'setAppBadge', { configurable: true, value: async (count?: number) => void calls.push(count ?? 0) });
    Object.defineProperty(navigator, 'clearAppBadge', { configurable: true, value: async () => void calls.push(0) });
  });
}

/**
 * This tab now reports itself hidden, as a tab in the background does. Headless Chromium (156) never hides a page: none
 * of CDP `Emulation.setFocusEmulationEnabled` false, a second page brought to front, a tab made with
 * `Target.createTarget` (`background: true`, or a foreground tab in the same window), the window minimized with
 * `Browser.setWindowBounds` (with and without Playwright's `--disable-backgrounding-occluded-windows` and
 * `--disable-renderer-backgrounding`) or `Page.setWebLifecycleState` changes `document.visibilityState`, and CDP has no
 * visibility override. So the page's own view of it is overridden, and the tab tells the others as it would.
 */
async function hide(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/**
 * Clicks the first notification shown, as the browser would: the service worker gets a `notificationclick`. A click
 * made up in a test carries no user activation, under which `focus()` and `openWindow()` are refused, so both are
 * recorded (and then called) to see which the handler chose, and with what.
 */
async function clickNotification(worker: Worker): Promise<{ focused: number; opened: string[] }> {
  return worker.evaluate(async () => {
    // The service worker's own scope: its registration, its clients, and the event a click on the notification fires.
    const scope = self as unknown as {
      registration: ServiceWorkerRegistration;
      clients: { openWindow(url: string): Promise<unknown> };
      WindowClient: { prototype: { focus(): Promise<unknown> } };
      dispatchEvent(event: Event): boolean;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event & { waitUntil?: unknown };
    };
    const seen = { focused: 0, opened: [] as string[] };
    const focus = scope.WindowClient.prototype.focus;
    const openWindow = scope.clients.openWindow.bind(scope.clients);
    scope.WindowClient.prototype.focus = function (this: unknown) {
      seen.focused += 1;
      return focus.call(this);
    };
    scope.clients.openWindow = (url: string) => {
      seen.opened.push(url);
      return openWindow(url);
    };
    try {
      const [notification] = await scope.registration.getNotifications();
      // The handler's promise is what it passes to waitUntil: waited for here, so what it chose is recorded.
      const done: Promise<unknown>[] = [];
      const event = new scope.NotificationEvent('notificationclick', { notification: notification! });
      Object.defineProperty(event, 'waitUntil', { value: (promise: Promise<unknown>) => done.push(promise.catch(() => undefined)) });
      scope.dispatchEvent(event);
      await Promise.all(done);
    } finally {
      scope.WindowClient.prototype.focus = focus;
      scope.clients.openWindow = openWindow;
    }
    return seen;
  });
}

/** A notification follows the run's question through the worker, the page and the service worker: on a loaded CI run
 * the default 10 s were not always enough. */
const NOTIFIED = { timeout: 30_000 };

async function shownNotifications(page: Page): Promise<Array<{ title: string; body: string }>> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((notification) => ({ title: notification.title, body: notification.body }));
  });
}

test('a question that arrives while no tab is visible is announced; clicking it opens the conversation; answering clears it', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await recordBadge(page);
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, { steps: [QUESTION, { text: 'Thanks.' }], chunkDelayMs: 300, chunkSize: 4 });
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Notify me when Parley is waiting for me', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('status')).toHaveText('Notifications are on for this browser.');

  const conversationId = await newConversation(page);
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Plan a trip');
  // Hidden before the question can arrive: on a busy machine it could otherwise arrive while the tab is still visible,
  // and then (rightly) nothing is announced.
  await hide(page);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(() => shownNotifications(page), NOTIFIED).toEqual([{ title: 'Parley is waiting for your answer', body: '' }]);
  await expect.poll(() => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls.at(-1))).toBe(1);

  // Away from the conversation, then the notification is clicked: the service worker asks this tab to open it.
  await page.evaluate(() => (location.hash = '#/settings'));
  const worker = context.serviceWorkers()[0]!;
  expect(await clickNotification(worker)).toEqual({ focused: 1, opened: [] });
  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));

  await page.getByRole('group', { name: 'Where to?' }).getByRole('radio', { name: 'Beach' }).check();
  await page.getByRole('button', { name: 'Submit answers' }).click();
  await expect.poll(() => shownNotifications(page)).toEqual([]);
  await expect.poll(() => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls.at(-1))).toBe(0);
});

test("what the person typed is not in a notification, unless they check \"Show the conversation's title\"", async ({ page, context }) => {
  // The conversation's title is the first thing typed in it.
  const secret = 'My bank PIN is 4321, plan a trip';
  await context.grantPermissions(['notifications']);
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, [QUESTION, QUESTION]);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('region', { name: 'Notifications' });
  await settings.getByRole('button', { name: 'Notify me when Parley is waiting for me', exact: true }).click();
  await expect(settings.getByRole('status')).toHaveText('Notifications are on for this browser.');
  const showTitle = settings.getByRole('checkbox', { name: "Show the conversation's title", exact: true });

  const conversationId = await newConversation(page);
  await hide(page);
  await send(page, secret);
  await expect.poll(() => shownNotifications(page), NOTIFIED).toHaveLength(1);
  const byDefault = await shownNotifications(page);
  expect(byDefault).toEqual([{ title: 'Parley is waiting for your answer', body: '' }]);
  expect(JSON.stringify(byDefault)).not.toContain('4321');

  // Checked, it is this device's choice, kept across a reload; the next notification names its conversation. (A reply
  // in chat answers the first question and the model asks again: a request of a new id, so news.)
  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(showTitle).not.toBeChecked();
  await showTitle.check();
  await page.reload();
  await expect(showTitle).toBeChecked();
  await page.evaluate((id) => (location.hash = `#/c/${id}`), conversationId);
  await hide(page);
  await send(page, 'Somewhere warm');
  await expect.poll(() => shownNotifications(page), NOTIFIED).toEqual([{ title: 'Parley is waiting for your answer', body: secret }]);
});

test('clicking a notification while no tab of Parley is open opens that conversation in a new window', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['notifications']);
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, [QUESTION]);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Notify me when Parley is waiting for me', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('status')).toHaveText('Notifications are on for this browser.');
  const conversationId = await newConversation(page);
  await hide(page);
  await send(page, 'Plan a trip');
  await expect.poll(() => shownNotifications(page), NOTIFIED).toEqual([{ title: 'Parley is waiting for your answer', body: '' }]);

  // The tab is closed (another site's page keeps the browser open); the notification stays, and is clicked.
  const worker = context.serviceWorkers()[0]!;
  const elsewhere = await context.newPage();
  await page.close();
  expect(await clickNotification(worker)).toEqual({ focused: 0, opened: [`${baseURL}/#/c/${encodeURIComponent(conversationId)}`] });
  await elsewhere.close();
});

test('no notification while a tab is visible, nor without the user turning them on, nor for what waited at load', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await recordBadge(page);
  await page.goto('/');
  await waitForServiceWorker(page);
  await useScript(page, [QUESTION]);
  await newConversation(page);
  // Not turned on: nothing, even hidden.
  await hide(page);
  await send(page, 'Plan a trip');
  await expect(page.getByRole('button', { name: 'Submit answers' })).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Notify me when Parley is waiting for me', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('status')).toHaveText('Notifications are on for this browser.');
  // Another tab that is visible: a new question is not announced.
  const other = await context.newPage();
  await other.goto('/');
  await useScript(other, [QUESTION]);
  await hide(page);
  await newConversation(other);
  await send(other, 'Another trip');
  await expect(other.getByRole('button', { name: 'Submit answers' })).toBeVisible();
  // The hidden tab has seen both questions (its badge says 2), and announced neither: one waited at load, and the
  // other arrived while a tab was visible.
  await expect.poll(() => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls.at(-1))).toBe(2);
  expect(await shownNotifications(page)).toEqual([]);
});

import { expect, test, type Page } from '@playwright/test';
import {
  assistantMessages,
  conversationLink,
  messageBox,
  newConversation,
  send,
  useScript,
  userMessages,
  waitForServiceWorker,
} from './fixtures';
import {
  controllerVersion,
  precachedIndexKeys,
  registrationSnapshot,
  startDeploymentServer,
  type DeploymentServer,
} from './update-helpers';

// Playwright's routing does not see the browser's fetch of a service worker script (tried: context.route on
// **/sw.js is never called for registration.update()), so the deployment is simulated by a server of our own
// that switches which sw.js it serves. Its own origin also keeps this test clear of port 4173 and of other
// tests' service workers.
let server: DeploymentServer;

test.beforeEach(async () => {
  server = await startDeploymentServer();
});

test.afterEach(async () => {
  await server.close();
});

/**
 * The whole story: the app at version one with a conversation, a deployment, the banner while version one keeps
 * running, then the click, the reload, version two in control and the conversation intact. `returningVisit`
 * reloads once after the first install, so the page was already controlled when it registered its worker.
 */
async function updateStory(page: Page, options: { returningVisit: boolean }): Promise<void> {
  // Two installs, a reload and two replies: on a loaded machine the whole story takes well over a minute.
  test.setTimeout(240_000);
  await page.goto(`${server.url}/`);
  await waitForServiceWorker(page);
  if (options.returningVisit) {
    await page.reload();
    await waitForServiceWorker(page);
  }
  expect(await controllerVersion(page)).toBe('v1');

  // Some state to keep: a conversation with an answered message, stored in IndexedDB.
  await useScript(page, [
    { text: 'First answer, from version one.' },
    { text: 'Second answer, while the update waits.' },
  ]);
  const conversationId = await newConversation(page);
  await send(page, 'Hello before the deployment');
  await expect(assistantMessages(page).first()).toHaveAttribute('data-status', 'complete');
  // A reload, by the app or by anything else, would drop this.
  await page.evaluate(() => {
    (window as WindowWithMarker).parleyBeforeUpdate = 'still here';
  });

  server.deploy();
  const requestsBeforeUpdate = server.requests.length;
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) throw new Error('no service worker registration');
    await registration.update();
  });

  const banner = page.getByRole('status').filter({ hasText: 'A new version is ready' });
  const reloadButton = banner.getByRole('button', { name: 'Reload to update', exact: true });
  // Installing version two precaches the whole shell; on a loaded two-core machine that has taken over 60 s.
  await expect(banner)
    .toBeVisible({ timeout: 150_000 })
    .catch(async (error: Error) => {
      // Seen once in CI, not reproduced in 16 runs under load: say where the new version stood, for the next look.
      const registration = await registrationSnapshot(page).catch((reason: unknown) => String(reason));
      throw new Error(`${error.message}\nregistration: ${JSON.stringify(registration)}\nrequests since the update: ${JSON.stringify(server.requests.slice(requestsBeforeUpdate))}`);
    });
  await expect(reloadButton).toBeVisible();
  // The browser really fetched the new script, and the new worker re-fetched the one entry whose revision changed.
  const newRequests = server.requests.slice(requestsBeforeUpdate);
  expect(newRequests).toContainEqual({ path: '/sw.js', version: 'v2' });
  expect(newRequests).toContainEqual({ path: '/index.html', version: 'v2' });

  // Meanwhile the old version keeps the page: the new worker waits, nothing reloaded, the chat still works.
  const swUrl = `${server.url}/sw.js`;
  expect(await registrationSnapshot(page)).toEqual({
    controller: swUrl,
    active: `${swUrl} activated`,
    waiting: `${swUrl} installed`,
    installing: null,
  });
  expect(await controllerVersion(page)).toBe('v1');
  expect(await readMarker(page)).toBe('still here');
  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  await send(page, 'Still working while the update waits?');
  await expect(assistantMessages(page).nth(1)).toContainText('Second answer, while the update waits.');
  await expect(assistantMessages(page).nth(1)).toHaveAttribute('data-status', 'complete');
  await expect(banner).toBeVisible();

  await reloadButton.click();
  // The new worker takes control at once (clientsClaim): the page must reload with it, not keep running version
  // one's code under version two's worker. Only the page is watched here: questions posted to the old worker while
  // it hands over would be events it must finish first, delaying the very activation under test.
  await expect.poll(() => reloadedSinceMarker(page), { message: 'after "Reload to update" the page reloads' }).toBe(true);
  await waitForServiceWorker(page);
  expect(await controllerVersion(page)).toBe('v2');
  await expect.poll(() => registrationSnapshot(page)).toEqual({
    controller: swUrl,
    active: `${swUrl} activated`,
    waiting: null,
    installing: null,
  });
  await expect(banner).toHaveCount(0);
  // The new worker's activation replaced the old precached index.html with the new revision's.
  const newIndexKey = `${server.url}/index.html?__WB_REVISION__=${server.revisions.second}`;
  expect(await precachedIndexKeys(page)).toEqual([newIndexKey]);

  // IndexedDB survived the switch: the same conversation with both exchanges, ready for the next message.
  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  await expect(conversationLink(page, conversationId)).toBeVisible();
  await expect(userMessages(page)).toHaveText(['Hello before the deployment', 'Still working while the update waits?']);
  await expect(assistantMessages(page)).toHaveText([
    /First answer, from version one\./,
    /Second answer, while the update waits\./,
  ]);
  await expect(messageBox(page)).toBeEditable();
}

/** A page's window with the test's marker: set before the update, gone once the page has reloaded. */
type WindowWithMarker = Window & { parleyBeforeUpdate?: string };

function readMarker(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (window as WindowWithMarker).parleyBeforeUpdate);
}

/** Whether the page reloaded since the marker was set; null while it navigates. */
async function reloadedSinceMarker(page: Page): Promise<boolean | null> {
  try {
    return (await readMarker(page)) === undefined;
  } catch {
    // "Execution context was destroyed": the reload is under way; ask again.
    return null;
  }
}

// The first visit's tab: its worker was installed (and claimed the page) after the page loaded. The user may keep
// this tab open for days, so an update found here must reload it like any other.
test('an update found in the tab that first installed the app reloads on "Reload to update"', async ({ page }) => {
  await updateStory(page, { returningVisit: false });
});

test('an update found on a returning visit reloads on "Reload to update"', async ({ page }) => {
  await updateStory(page, { returningVisit: true });
});

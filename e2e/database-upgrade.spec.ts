import { expect, test, type Page } from '@playwright/test';

/** What a newer release of Parley does when it starts in another tab: open the database at a higher version. */
async function openNewerVersion(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const probe = indexedDB.open('parley');
        probe.onsuccess = () => {
          const current = probe.result.version;
          probe.result.close();
          const request = indexedDB.open('parley', current + 1);
          request.onsuccess = () => {
            const version = request.result.version;
            request.result.close();
            resolve(version);
          };
          request.onerror = () => reject(request.error);
        };
        probe.onerror = () => reject(probe.error);
      }),
  );
}

test('a newer version opened in another tab tells this tab to reload, and commands say why they fail', async ({ context }) => {
  const oldTab = await context.newPage();
  await oldTab.goto('/');
  await expect(oldTab.getByRole('navigation', { name: 'Conversations', exact: true })).toBeVisible();
  // The worker holds its connection once it answered the first list.
  await expect(oldTab.getByText('No conversations yet.')).toBeVisible();

  const newTab = await context.newPage();
  await newTab.goto('about:blank');
  await newTab.goto(oldTab.url());
  // The upgrade is not blocked: the old tab's worker stepped aside.
  expect(await openNewerVersion(newTab)).toBeGreaterThan(1);

  const banner = oldTab.getByRole('alert').filter({ hasText: 'Parley was updated in another tab' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Reload', exact: true })).toBeVisible();

  // A command after the upgrade gets the reason, not an internal error.
  await oldTab.getByRole('button', { name: 'Settings', exact: true }).click();
  await oldTab.getByRole('combobox', { name: 'Language', exact: true }).selectOption({ label: '简体中文' });
  await expect(oldTab.getByRole('alert').filter({ hasText: '另一个标签页' }).first()).toBeVisible();
  await expect(oldTab.getByText('Something went wrong', { exact: false })).toHaveCount(0);

  // This code cannot open the newer database at all: a reload of the stale tab says the same, instead of failing.
  await oldTab.reload();
  await expect(oldTab.getByRole('alert').filter({ hasText: /Parley was updated in another tab|Parley 已在另一个标签页中更新/ }).first()).toBeVisible();
});

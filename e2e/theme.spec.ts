import { expect, test, type Page } from '@playwright/test';

// Theme: System, Light or Dark, chosen in Settings, kept across a reload, before the first paint.

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT = 'rgb(248, 249, 251)';
const DARK = 'rgb(20, 23, 31)';

test('the theme follows the system until one is chosen, and a chosen one survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect.poll(() => background(page)).toBe(LIGHT);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const theme = page.getByRole('combobox', { name: 'Theme', exact: true });
  await expect(theme).toHaveValue('system');
  await theme.selectOption({ label: 'Dark' });
  await expect.poll(() => background(page)).toBe(DARK);
  await page.reload();
  await expect.poll(() => background(page)).toBe(DARK);
  await expect(page.getByRole('combobox', { name: 'Theme', exact: true })).toHaveValue('dark');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('combobox', { name: 'Theme', exact: true }).selectOption({ label: 'Light' });
  await expect.poll(() => background(page)).toBe(LIGHT);
  await page.getByRole('combobox', { name: 'Theme', exact: true }).selectOption({ label: 'System' });
  await expect.poll(() => background(page)).toBe(DARK);
});

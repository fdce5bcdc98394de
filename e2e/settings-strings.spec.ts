import { expect, test, type Page } from '@playwright/test';

// Settings' strings load with Settings, not with the page (docs/architecture.md, "The first screen"): Settings never
// shows a key or two languages, whether the browser speaks Chinese or the language is switched in Settings.

/** No string key (`data.export`, `sync.heading`…) anywhere on the page: every one was worded. */
async function expectNoKeys(page: Page) {
  const text = await page.locator('main').innerText();
  expect(text.match(/\b(?:settings|sync|data|mcp|localModel|notify|provider)\.[a-zA-Z_.]+\b/g) ?? []).toEqual([]);
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test.describe('in a Chinese browser', () => {
      test.use({ locale: 'zh-CN' });

      test('Settings is in Chinese from its first frame', async ({ page }) => {
        await page.goto('/#/settings');
        await expect(page.getByRole('region', { name: '同步', exact: true })).toBeVisible();
        await expect(page.getByRole('button', { name: '导出对话', exact: true })).toBeVisible();
        await expect(page.getByRole('combobox', { name: '语言', exact: true })).toBeVisible();
        await expectNoKeys(page);
        // The Built-in demo's name is Parley's own words: the form that edits it says it in Chinese too, as does Save.
        await expect(page.getByRole('heading', { name: '正在编辑 内置演示', exact: true })).toBeVisible();
        await page.getByRole('button', { name: '保存', exact: true }).click();
        await expect(page.getByText('新对话将使用 内置演示。', { exact: true })).toBeVisible();
      });
    });

    test('Settings speaks the language chosen there at once, its own words included', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Export conversations', exact: true })).toBeVisible();
      await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('zh-CN');
      await expect(page.getByRole('button', { name: '导出对话', exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: '同步', exact: true })).toBeVisible();
      await expectNoKeys(page);
    });
  });
}

import { afterEach, describe, expect, it } from 'vitest';
import { locale, setLocale, t } from '../../src/ui/i18n/i18n';

afterEach(async () => {
  await setLocale('en');
});

// The Chinese dictionary is a chunk of its own (issue 21.21): the UI switches only once it is loaded, never to keys.
describe('switching the UI language', () => {
  it('speaks Chinese once its dictionary has loaded', async () => {
    expect(t('nav.settings')).toBe('Settings');
    await setLocale('zh-CN');
    expect(locale()).toBe('zh-CN');
    expect(t('nav.settings')).toBe('设置');
  });

  it('keeps the language chosen last when an earlier choice is still loading', async () => {
    const chinese = setLocale('zh-CN');
    const english = setLocale('en');
    await Promise.all([chinese, english]);
    expect(locale()).toBe('en');
    expect(t('nav.settings')).toBe('Settings');
  });
});

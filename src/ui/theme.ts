/** The look: the system's light or dark, or one chosen in Settings. A setting of this device (never synced). */
export type Theme = 'system' | 'light' | 'dark';

/** Where the chosen theme is kept. */
const THEME_KEY = 'parley-theme';
const BAR_COLOURS = { light: '#ffffff', dark: '#1b1f2a' } as const;

export function storedTheme(): Theme {
  const stored = globalThis.localStorage?.getItem(THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/**
 * Applies `theme` to the page: `data-theme` on the root element picks the colour scheme that every light-dark() colour
 * of the stylesheets follows, and the browser's bar takes the matching colour. Read before the first paint (main.tsx),
 * so a chosen theme never flashes the other one.
 */
export function applyTheme(theme: Theme = storedTheme()): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const scheme = meta.media.includes('dark') ? 'dark' : 'light';
    meta.content = BAR_COLOURS[theme === 'system' ? scheme : theme];
  }
}

export function chooseTheme(theme: Theme): void {
  if (theme === 'system') localStorage.removeItem(THEME_KEY);
  else localStorage.setItem(THEME_KEY, theme);
  applyTheme(theme);
}

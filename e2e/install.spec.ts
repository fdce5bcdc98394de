import { expect, test } from '@playwright/test';
import { launchPersistent, waitForServiceWorker } from './fixtures';

interface ManifestIcon {
  src: string;
  sizes?: string;
  type?: string;
  purpose?: string;
}

interface WebManifest {
  name?: string;
  short_name?: string;
  theme_color?: string;
  background_color?: string;
  display?: string;
  start_url?: string;
  icons?: ManifestIcon[];
}

test('the app is installable and its manifest is complete', async () => {
  const browser = await launchPersistent();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto('/');
    await waitForServiceWorker(page);

    const session = await browser.context.newCDPSession(page);
    const { installabilityErrors } = await session.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);

    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(manifestHref).toBeTruthy();
    const manifestUrl = new URL(manifestHref ?? '', page.url());
    const response = await page.request.get(manifestUrl.href);
    expect(response.ok()).toBe(true);
    const manifest = (await response.json()) as WebManifest;

    expect(manifest.name).toContain('Parley');
    expect(manifest.short_name).toBe('Parley');
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.display).toBe('standalone');
    expect(manifest.start_url).toBeTruthy();

    const icons = manifest.icons ?? [];
    const sized = (size: number) => icons.filter((icon) => icon.sizes?.split(/\s+/).includes(`${size}x${size}`));
    expect(sized(192).length).toBeGreaterThan(0);
    expect(sized(512).length).toBeGreaterThan(0);
    expect(icons.some((icon) => icon.purpose?.split(/\s+/).includes('maskable'))).toBe(true);

    // Every icon is served as a PNG of the size it claims (width and height sit in the IHDR chunk).
    for (const icon of icons) {
      const iconResponse = await page.request.get(new URL(icon.src, manifestUrl).href);
      expect(iconResponse.ok(), icon.src).toBe(true);
      const bytes = await iconResponse.body();
      expect(bytes.subarray(1, 4).toString('ascii'), icon.src).toBe('PNG');
      expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }

    const favicon = await page.request.get('/favicon.svg');
    expect(favicon.ok()).toBe(true);
    expect(await favicon.text()).toContain('<svg');
  } finally {
    await browser.close();
  }
});

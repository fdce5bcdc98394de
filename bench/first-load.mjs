// First-load JavaScript: every script the built index.html loads or modulepreloads, gzipped as a server would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const FIRST_LOAD_BUDGET_KIB = 90;

/** The gzip size (KiB) of each JS file index.html names (module scripts and modulepreloads), and their total. */
export function firstLoadJs(distDirectory = 'dist') {
  const html = readFileSync(join(distDirectory, 'index.html'), 'utf8');
  const files = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /type="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /rel="modulepreload"/.test(tag);
    const source = /(?:src|href)="([^"]+\.js)"/.exec(tag)?.[1];
    if ((isScript || isPreload) && source) files.add(source.replace(/^\//, ''));
  }
  const sizes = [...files].map((file) => ({ file, gzipKiB: gzipSync(readFileSync(join(distDirectory, file))).length / 1024 }));
  return { files: sizes, totalKiB: sizes.reduce((sum, entry) => sum + entry.gzipKiB, 0) };
}

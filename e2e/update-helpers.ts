import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

/** The production build that `vite build` wrote. */
const DIST_DIRECTORY = fileURLToPath(new URL('../dist', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
};

/** The message the probe appended to each served service worker answers with its deployment's name. */
const VERSION_QUESTION = 'parley-e2e-version';

/**
 * A one-line probe appended to a served sw.js: answers "which deployment are you?" through the MessagePort sent
 * with the question. Playwright cannot tell two service workers with the same script URL apart; this can.
 */
function versionProbe(version: string): string {
  const question = JSON.stringify(VERSION_QUESTION);
  return (
    `\nself.addEventListener('message', (event) => {` +
    ` if (event.data && event.data.type === ${question} && event.ports[0])` +
    ` event.ports[0].postMessage(${JSON.stringify(version)}); });\n`
  );
}

/** A static server for the built app that can switch, mid-test, to a newly "deployed" version. */
export interface DeploymentServer {
  /** The origin it serves, e.g. http://127.0.0.1:40123 (its own origin: no other test's service worker is here). */
  url: string;
  /** The precache revision of index.html in the first version's sw.js, and the one the new version uses. */
  revisions: { first: string; second: string };
  /** Paths (with query) requested so far, in order, each tagged with the version being served at the time. */
  requests: { path: string; version: 'v1' | 'v2' }[];
  /** From now on sw.js is the new version: the real build's script with index.html's revision changed. */
  deploy(): void;
  /** Stops the server and deletes its copy of the build. */
  close(): Promise<void>;
}

/**
 * Serves a snapshot of `dist/` (copied, so a concurrent `vite build` cannot change it under the test) on a free
 * port. Both versions serve the same files; only sw.js differs, which is what a deployment looks like to the
 * browser's update check. Each sw.js gets a probe so {@link controllerVersion} can tell which one runs.
 */
export async function startDeploymentServer(): Promise<DeploymentServer> {
  const root = await mkdtemp(join(tmpdir(), 'parley-update-'));
  await cp(DIST_DIRECTORY, root, { recursive: true });
  const originalScript = await readFile(join(root, 'sw.js'), 'utf8');
  const revisionMatch = /\{url:"index\.html",revision:"([0-9a-f]+)"\}/.exec(originalScript);
  if (!revisionMatch?.[1]) throw new Error('dist/sw.js has no precache entry for index.html: run `npx vite build`');
  const first = revisionMatch[1];
  // Any other revision will do: flipping the first digit always gives one.
  const second = (first.startsWith('0') ? '1' : '0') + first.slice(1);
  await assertPrecachedFilesExist(root, originalScript);

  const scripts = {
    v1: originalScript + versionProbe('v1'),
    v2: originalScript.replace(revisionMatch[0], `{url:"index.html",revision:"${second}"}`) + versionProbe('v2'),
  };
  let version: 'v1' | 'v2' = 'v1';
  const requests: DeploymentServer['requests'] = [];

  const server: Server = createServer((request, response) => {
    const requestUrl = new URL(request.url ?? '/', 'http://localhost');
    requests.push({ path: requestUrl.pathname + requestUrl.search, version });
    // Every answer must be revalidated: the browser's update check has to see the switch at once.
    const headers = { 'Cache-Control': 'no-cache' };
    if (requestUrl.pathname === '/sw.js') {
      response.writeHead(200, { ...headers, 'Content-Type': CONTENT_TYPES['.js'] });
      response.end(scripts[version]);
      return;
    }
    const relative = requestUrl.pathname === '/' ? 'index.html' : decodeURIComponent(requestUrl.pathname.slice(1));
    const path = normalize(join(root, relative));
    if (!path.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    readFile(path).then(
      (body) => {
        const contentType = CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
        response.writeHead(200, { ...headers, 'Content-Type': contentType });
        response.end(body);
      },
      () => response.writeHead(404, headers).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    revisions: { first, second },
    requests,
    deploy() {
      version = 'v2';
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Fails clearly when the copy caught a build half-written (a precached file missing) instead of timing out later. */
async function assertPrecachedFilesExist(root: string, script: string): Promise<void> {
  const urls = [...script.matchAll(/\{url:"([^"]+)",revision:/g)].map((match) => match[1] ?? '');
  if (urls.length === 0) throw new Error('dist/sw.js has no precache manifest');
  for (const url of urls) {
    await stat(join(root, url)).catch(() => {
      throw new Error(`dist/ is incomplete (${url} missing): was a build running? Rebuild and rerun.`);
    });
  }
}

/** Which deployment's service worker controls `page` ('v1', 'v2'), or 'none' when the page is not controlled. */
export async function controllerVersion(page: Page): Promise<string> {
  return page.evaluate(async (question) => {
    const controller = navigator.serviceWorker.controller;
    if (!controller) return 'none';
    const channel = new MessageChannel();
    const answer = new Promise<string>((resolve) => {
      channel.port1.onmessage = (event: MessageEvent<string>) => resolve(event.data);
    });
    controller.postMessage({ type: question }, [channel.port2]);
    return answer;
  }, VERSION_QUESTION);
}

/** The page's service worker registration as plain data: the script URL and state of each slot. */
export interface RegistrationSnapshot {
  controller: string | null;
  active: string | null;
  waiting: string | null;
  installing: string | null;
}

/** Reads the registration's slots ("url state" for each worker present) and the page's controller script URL. */
export async function registrationSnapshot(page: Page): Promise<RegistrationSnapshot> {
  return page.evaluate(async () => {
    const describe = (worker: ServiceWorker | null | undefined) =>
      worker ? `${worker.scriptURL} ${worker.state}` : null;
    const registration = await navigator.serviceWorker.getRegistration();
    return {
      controller: navigator.serviceWorker.controller?.scriptURL ?? null,
      active: describe(registration?.active),
      waiting: describe(registration?.waiting),
      installing: describe(registration?.installing),
    };
  });
}

/** The cache keys, across all caches, of the precached index.html (Workbox keys it by URL plus revision). */
export async function precachedIndexKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const keys: string[] = [];
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      keys.push(...requests.map((request) => request.url).filter((url) => new URL(url).pathname === '/index.html'));
    }
    return keys;
  });
}

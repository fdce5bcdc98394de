/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import solid from 'vite-plugin-solid';
import { VitePWA } from 'vite-plugin-pwa';
import { ENGINE_CACHE } from './src/schema/cache-names.ts';
import { appShell, appShellPlugin } from './scripts/app-shell-plugin.ts';

/**
 * The production page's Content-Security-Policy: a second wall behind the Markdown sanitizer. Only our own scripts
 * run; images load only from the app itself. connect-src allows any http(s) origin because the worker, which may
 * inherit this policy, talks to whatever provider the user configured. Not applied to the dev server (inline HMR).
 */
const contentSecurityPolicyFor = (shellScriptHash: string) => [
  "default-src 'self'",
  `script-src 'self' ${shellScriptHash}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' http: https:",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'parley-content-security-policy',
    apply: 'build',
    // The app shell's inline script is allowed by its hash.
    transformIndexHtml: async (html) => {
      const policy = contentSecurityPolicyFor((await appShell()).scriptHash);
      return html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
    },
  };
}

/**
 * index.html's script (src/boot.ts) starts the agent worker, then imports the app (src/main.tsx): the app's files are
 * preloaded from the page itself, as a static entry's are, so they load side by side with the worker's, not after the
 * boot script ran. The worker's starter (src/agent-worker.ts) is preloaded first: a browser fetches six files at a time
 * from one HTTP/1.1 server, and behind the app's twenty it came in the third round, so the worker (whose reads every
 * screen waits for) started only after the app's files had all arrived.
 */
function preloadApp(entries = ['/src/agent-worker.ts', '/src/main.tsx']): Plugin {
  return {
    name: 'parley-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunks = Object.values(context.bundle ?? {}).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const starts = entries.map((entry) => {
          // An entry the page's first-load group holds (pageFirstLoadChunk) is that group's chunk, which has no facade.
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(entry)) ?? chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(entry)));
          if (!chunk) throw new Error(`parley-preload-app: no chunk for ${entry}`);
          return chunk;
        });
        const scripts = new Set<string>();
        const styles = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          if (!chunk || scripts.has(fileName)) return;
          scripts.add(fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
          chunk.imports.forEach(visit);
        };
        for (const start of starts) visit(start.fileName);
        const preloads = [...scripts]
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          .filter((link) => !html.includes(link.match(/href="[^"]+"/)![0]));
        // The app's stylesheets are inlined: the first paint (the app shell) waits for no request, and the shell's
        // script, which a pending stylesheet would hold, runs as it is parsed. Each file stays as a *disabled* link,
        // never fetched: the app's import of its chunk finds it there, rather than fetching the same rules again.
        const stylesheets = [...styles].map((file) => {
          const asset = context.bundle?.[file];
          const css = asset?.type !== 'asset' ? undefined : typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          if (css === undefined || css.includes('</style')) throw new Error(`parley-preload-app: cannot inline ${file}`);
          return `<style>${css}</style>\n    <link rel="stylesheet" crossorigin href="/${file}" disabled>`;
        });
        return html
          .replace('<script type="module"', `${stylesheets.join('\n    ')}\n    <script type="module"`)
          .replace('</head>', `  ${preloads.join('\n    ')}\n  </head>`);
      },
    },
  };
}

/**
 * Cross-origin isolation, so the in-browser model can use multi-threaded WebAssembly (SharedArrayBuffer). `vite preview`
 * sends these headers; on static hosts public/coi-headers.js (imported by the service worker) adds them. COEP
 * `credentialless` (not `require-corp`): CORS fetches to providers and MCP servers work under either, but the no-cors
 * probe that tells "this server refuses our origin (CORS)" from "unreachable" only works under credentialless.
 */
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
};

/**
 * No other page may frame Parley (clickjacking: a page drew its own button over our Allow, at 30% opacity). Only an HTTP
 * header can say so: a `<meta>` CSP cannot carry frame-ancestors. X-Frame-Options for browsers without CSP level 2.
 * Static hosts must send these themselves (README, "Deploying"); the app shell's script refuses to run framed regardless.
 */
const FRAME_HEADERS = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
};


/**
 * The model SDKs (the AI SDK, the MCP SDK) bring classic zod, built on the same core modules as the app's zod/mini. A
 * module goes whole into one chunk, so a shared core would carry every schema type classic zod has into the chunk the
 * worker fetches for a first reply (19 KiB gzip instead of 11). The SDKs' imports of zod get their own copy (the same
 * files under another module id), fetched only with an SDK: a first reply from the Built-in demo fetches 8 KiB less,
 * the first use of a provider or an MCP server about 8 KiB more (beside the SDKs' own 60–80 KiB).
 */
function sdkZodCopy(): Plugin {
  const mark = '?sdk-zod';
  const sdk = /[\\/]node_modules[\\/](ai|@ai-sdk[\\/][^\\/]+|@modelcontextprotocol[\\/]sdk)[\\/]/;
  return {
    name: 'parley-sdk-zod-copy',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer) return undefined;
      const inCopy = importer.endsWith(mark);
      if (!inCopy && !(sdk.test(importer) && /^zod(\/|$)/.test(source))) return undefined;
      const resolved = await this.resolve(source, inCopy ? importer.slice(0, -mark.length) : importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || !/[\\/]node_modules[\\/]zod[\\/]/.test(resolved.id)) return resolved;
      return { ...resolved, id: resolved.id + mark };
    },
    load: (id) => (id.endsWith(mark) ? readFileSync(id.slice(0, -mark.length), 'utf8') : undefined),
  };
}

/**
 * The worker's code a first reply runs after the first screen — the full host (src/worker/host.ts, which also hands the
 * entry the providers' registry and the Built-in demo) with everything it imports that the worker's entry does not
 * (zod, the schemas, the question tool, the prompt) — as one chunk. Left to itself the bundler cut this into nine files,
 * fetched together every time: as one (and the bundler's 0.5 KiB of helpers) it is 2.8 KiB gzip smaller and seven
 * requests fewer. What loads on use (MCP, sync, other providers, export) keeps its own chunks. The entry's own static
 * imports (the first screen) stay in the entry's file: the bundler cut the ones a lazy chunk shares into files of their
 * own, each another request before the first screen (`wire-error`, and more as chunks are split off the host).
 */
function workerFirstReplyChunk(): Rolldown.CodeSplittingGroup {
  const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  const entry = file('./src/worker/main.ts');
  const host = file('./src/worker/host.ts');
  // Per chunking pass (the entry's module info is one object within a pass); a nested worker's build has no such entry.
  const passes = new WeakMap<object, { first: Set<string>; members: Set<string> }>();
  const staticClosure = (starts: string[], context: Rolldown.ChunkingContext) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      context.getModuleInfo(id)?.importedIds.forEach(visit);
    };
    starts.forEach(visit);
    return seen;
  };
  return {
    name: (id, context) => {
      const pass = context.getModuleInfo(entry);
      if (!pass) return null;
      let groups = passes.get(pass);
      if (!groups) {
        const first = staticClosure([entry], context);
        groups = { first, members: new Set([...staticClosure([host], context)].filter((member) => !first.has(member))) };
        passes.set(pass, groups);
      }
      return groups.first.has(id) ? 'main' : groups.members.has(id) ? 'host' : null;
    },
    // Their imports outside the group are the entry's, loaded before them.
    includeDependenciesRecursively: false,
  };
}

/**
 * The page's first screen as one file: what src/main.tsx imports, but not what index.html's script (src/boot.ts) or the
 * worker's starter (src/agent-worker.ts) import: they run before the app has arrived, so the worker starts early. Left to
 * itself the bundler cut out of it every module a lazy chunk shares (the strings and Solid's runtime, Solid's DOM
 * runtime, the app's context, the wire's error, the device's name), a file each, six fetched at a time from an
 * HTTP/1.1 server.
 */
function pageFirstLoadChunk(): Rolldown.CodeSplittingGroup {
  const file = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  const entry = file('./src/main.tsx');
  const starts = [file('./src/boot.ts'), file('./src/agent-worker.ts')];
  const passes = new WeakMap<object, Set<string>>();
  const staticClosure = (start: string, context: Rolldown.ChunkingContext) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      context.getModuleInfo(id)?.importedIds.forEach(visit);
    };
    visit(start);
    return seen;
  };
  return {
    name: (id, context) => {
      const pass = context.getModuleInfo(entry);
      if (!pass) return null;
      let members = passes.get(pass);
      if (!members) {
        const before = new Set(starts.flatMap((start) => [...staticClosure(start, context)]));
        members = new Set([...staticClosure(entry, context)].filter((member) => !before.has(member)));
        passes.set(pass, members);
      }
      return members.has(id) ? 'main' : null;
    },
    includeDependenciesRecursively: false,
  };
}

export default defineConfig({
  plugins: [
    solid(),
    contentSecurityPolicy(),
    // The app shell (src/ui/shell) in index.html's #root, and its script inline after it: the first screen's frame is
    // painted with the page instead of after the app's JavaScript has loaded and run.
    appShellPlugin(),
    preloadApp(),
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'Parley — the agent that asks before it guesses',
        short_name: 'Parley',
        description: 'A local-first AI agent that asks you structured questions instead of guessing.',
        // The app bar's colour: the installed app's title bar continues it (index.html sets the dark one).
        theme_color: '#ffffff',
        background_color: '#f8f9fb',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // woff2: KaTeX's fonts, so maths typesets offline too (the browser takes woff2 first; woff and ttf are fallbacks).
        globPatterns: ['**/*.{js,css,html,woff2}'],
        navigateFallback: '/index.html',
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        importScripts: ['coi-headers.js', 'notifications.js', 'network-routes.js'],
        // The in-browser model's engine (8 MB) is not precached: it is cached when a model is downloaded (no surprise
        // download for users who never use it; model-download.ts puts it into this cache too), and served from the
        // cache from then on, offline included.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.endsWith('.wasm'),
            handler: 'CacheFirst',
            options: { cacheName: ENGINE_CACHE, expiration: { maxEntries: 4 } },
          },
        ],
      },
    }),
  ],
  worker: {
    format: 'es',
    plugins: () => [sdkZodCopy()],
    // Comments as the page's build keeps them when it minifies (none): Vite sets that for the page's output only, and the
    // worker's kept zod's and the SDKs' `@__PURE__` and `@__NO_SIDE_EFFECTS__` marks (0.2 KiB gzip of a first reply).
    rolldownOptions: { output: { codeSplitting: { groups: [workerFirstReplyChunk()] }, comments: { annotation: false, jsdoc: false, legal: false } } },
  },
  build: {
    target: 'es2022',
    rolldownOptions: { output: { codeSplitting: { groups: [pageFirstLoadChunk()] } } },
    // No modulepreload polyfill (0.3 KiB gzip of index.html's script): every browser Parley runs in (ES2022, module
    // workers) follows <link rel="modulepreload">, and one that did not would only fetch the same files when imported.
    modulePreload: { polyfill: false },
    // Fonts stay files: an inlined `data:` font (KaTeX's smallest woff2 files are under Vite's 4 KB limit) is refused by
    // the page's Content-Security-Policy (default-src 'self'), and a file is precached for offline use like the others.
    assetsInlineLimit: (file: string) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
  },
  server: { headers: { ...ISOLATION_HEADERS, ...FRAME_HEADERS } },
  preview: { port: 4173, strictPort: true, headers: { ...ISOLATION_HEADERS, ...FRAME_HEADERS } },
  test: {
    environment: 'node',
    projects: [
      {
        extends: true,
        // A bound, not a timing: property tests and a 10,000-conversation import took over 5 s (the default) each
        // while six test runs shared this 2-core machine, and a slow pass is still a pass.
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['tests/component/**/*.test.tsx'],
          setupFiles: ['tests/component/setup.ts'],
          // Room for the 5 s waits of setup.ts when the machine is loaded.
          testTimeout: 20_000,
        },
      },
    ],
  },
});

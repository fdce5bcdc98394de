// Build-time only (vite.config.ts): the app shell in index.html, rendered from the app's own Solid components, and its
// inline script, compiled from the app's own modules (docs/architecture.md, "The first screen").
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, runnerImport, type Plugin } from 'vite';
import solid from 'vite-plugin-solid';

export interface AppShell {
  /** #root's markup (src/ui/shell/render-app-shell.tsx). */
  html: string;
  /** The script inlined after it (src/ui/shell/app-shell-script.ts), one classic script. */
  script: string;
  /** The script's hash as the Content-Security-Policy's script-src takes it. */
  scriptHash: string;
}

const source = (path: string) => fileURLToPath(new URL(`../src/ui/shell/${path}`, import.meta.url));

/** Renders the shell with Solid's server renderer, through Vite (so the components compile as the app's do). */
async function renderShell(): Promise<string> {
  const { module } = await runnerImport<{ appShellHtml: string }>(source('render-app-shell.tsx'), {
    configFile: false,
    logLevel: 'error',
    // The components' stylesheets are the page's business, not the markup's.
    plugins: [withoutStylesheets(), solid({ ssr: true, solid: { hydratable: false } })],
  });
  return module.appShellHtml;
}

function withoutStylesheets(): Plugin {
  const empty = '\0parley-no-stylesheet';
  return {
    name: 'parley-no-stylesheet',
    enforce: 'pre',
    resolveId: (id) => (id.endsWith('.css') ? empty : undefined),
    load: (id) => (id === empty ? 'export {};' : undefined),
  };
}

/** Compiles the shell's script into one minified classic script (the page parses it before it paints). */
async function compileScript(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'error',
    build: { write: false, minify: true, target: 'es2022', lib: { entry: source('app-shell-script.ts'), formats: ['iife'], name: 'parleyShell' } },
  });
  const chunk = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : [])).find((file) => file.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('app shell: the script did not compile');
  return chunk.code.trim();
}

let shell: Promise<AppShell> | undefined;

/** The shell, made once per build (or dev server). */
export function appShell(): Promise<AppShell> {
  return (shell ??= Promise.all([renderShell(), compileScript()]).then(([html, script]) => {
    if (script.includes('</script')) throw new Error('app shell: the script cannot be inlined');
    return { html, script, scriptHash: `'sha256-${createHash('sha256').update(script).digest('base64')}'` };
  }));
}

/** Writes the shell into index.html's empty #root, and its script after it. */
export function appShellPlugin(): Plugin {
  return {
    name: 'parley-app-shell',
    transformIndexHtml: async (html) => {
      if (!html.includes('<div id="root"></div>')) throw new Error('parley-app-shell: index.html has no empty #root');
      const { html: markup, script } = await appShell();
      return html.replace('<div id="root"></div>', `<div id="root">${markup}</div>\n    <script>${script}</script>`);
    },
  };
}

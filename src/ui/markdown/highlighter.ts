import hljs from 'highlight.js/lib/core';
import type { LanguageFn } from 'highlight.js';
import './code-colours.css';

/**
 * The code highlighter, loaded only when a message has a fenced code block (see code-blocks.ts). highlight.js core, with
 * each language its own chunk fetched when a block first needs it. Chosen by measurement (README, "Code and maths").
 */
const LANGUAGES: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  lua: () => import('highlight.js/lib/languages/lua'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES: Record<string, string> = {
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'typescript', tsx: 'typescript', mts: 'typescript',
  py: 'python', sh: 'bash', zsh: 'bash', console: 'shell', html: 'xml', xhtml: 'xml', svg: 'xml', yml: 'yaml', rs: 'rust',
  'c++': 'cpp', cc: 'cpp', hpp: 'cpp', h: 'c', cs: 'csharp', 'c#': 'csharp', kt: 'kotlin', rb: 'ruby', md: 'markdown',
  golang: 'go', jsonc: 'json', patch: 'diff', toml: 'ini', docker: 'dockerfile',
};

const loading = new Map<string, Promise<string | undefined>>();

/** Registers the language a fence names (or an alias of it); its highlight.js name, or undefined when not known. */
export function loadLanguage(fenceLanguage: string): Promise<string | undefined> {
  const lower = fenceLanguage.toLowerCase();
  const name = Object.hasOwn(LANGUAGES, lower) ? lower : Object.hasOwn(ALIASES, lower) ? ALIASES[lower]! : undefined;
  if (!name) return Promise.resolve(undefined);
  let promise = loading.get(name);
  if (!promise) {
    promise = LANGUAGES[name]!().then((module) => {
      hljs.registerLanguage(name, module.default);
      return name;
    }, () => undefined);
    loading.set(name, promise);
  }
  return promise;
}

/** One chunk's colours: its nodes, and whether the highlighter ended at top level (so the next chunk can start fresh). */
interface ColouredChunk {
  nodes: DocumentFragment;
  atTopLevel: boolean;
}

/**
 * Colours `text` (whole lines) in `language`. highlight.js escapes the code; its markup is still rebuilt here from
 * text nodes and `hljs-*` classes only, so nothing else can come through. Undefined if the result would not show the
 * text exactly (then the caller keeps it plain: nothing is lost).
 */
export function colour(text: string, language: string): ColouredChunk | undefined {
  const result = hljs.highlight(text, { language, ignoreIllegals: true });
  const template = document.createElement('template');
  template.innerHTML = result.value;
  const nodes = document.createDocumentFragment();
  copyTrusted(template.content, nodes);
  if (nodes.textContent !== text) return undefined;
  // The compiled language itself has no parent mode: the text ended outside any comment, string or block.
  const top = result._top as { parent?: unknown } | undefined;
  return { nodes, atTopLevel: top !== undefined && top.parent === undefined };
}

const TOKEN_CLASS = /^(hljs-[\w-]+|[a-z]+_+)$/;

function copyTrusted(from: Node, to: Node): void {
  for (const child of from.childNodes) {
    if (child.nodeType === Node.ELEMENT_NODE && child.nodeName === 'SPAN') {
      const span = document.createElement('span');
      const classes = (child as Element).className.split(/\s+/).filter((name) => TOKEN_CLASS.test(name));
      if (classes.length > 0) span.className = classes.join(' ');
      copyTrusted(child, span);
      to.appendChild(span);
    } else {
      to.appendChild(document.createTextNode(child.textContent ?? ''));
    }
  }
}

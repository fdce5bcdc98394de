import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { t } from './i18n/i18n';
import { mathsExtensions } from './maths-syntax';

const SAFE_LINK = /^(https?:|mailto:)/i;

/** Our own instances: configuring the global `marked` or `DOMPurify` would leak into anyone else's use. */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  extensions: mathsExtensions,
  renderer: {
    // A code block names its language in a header; the "Copy code" button and the colours are added by code-blocks.ts.
    code({ text, lang }) {
      const language = (lang ?? '').match(/^\S*/)?.[0] ?? '';
      const body = text ? `${text.replace(/\n$/, '')}\n` : '';
      const languageClass = language ? ` class="language-${escapeHtml(language)}"` : '';
      return `<div class="code-block"><div class="code-header"><span class="code-language">${escapeHtml(language)}</span></div><pre><code${languageClass}>${escapeHtml(body)}</code></pre></div>\n`;
    },
    // A GFM task is a disabled checkbox (the sanitizer lets no other input through), named for screen readers.
    checkbox({ checked }) {
      const label = escapeHtml(checked ? t('markdown.taskDone') : t('markdown.taskOpen'));
      return `<input type="checkbox" disabled=""${checked ? ' checked=""' : ''} aria-label="${label}"> `;
    },
    // Raw HTML in a model's text is shown as the text it is ("use List<String>", "press <Enter>"), never parsed:
    // a model must not be able to draw the app's own dialogs or notices.
    html({ text }) {
      return escapeHtml(text);
    },
    // A link says where it really goes: the destination's host follows any text that is not the URL itself.
    link({ href, tokens }) {
      const text = this.parser.parseInline(tokens);
      const destination = linkHost(href);
      const plain = text.replace(/<[^>]*>/g, '');
      const shown = destination && plain !== href && plain !== destination ? ` <span class="link-destination">(${escapeHtml(destination)})</span>` : '';
      const title = SAFE_LINK.test(href.trim()) ? ` title="${escapeHtml(href)}"` : '';
      return `<a href="${escapeHtml(href)}"${title}>${text}${shown}</a>`;
    },
    // A model's image is never fetched on its own: its URL could carry the conversation to a third party
    // (prompt-injection exfiltration). It becomes a link the user may choose to open.
    image({ href, text }) {
      const label = escapeHtml(text.trim() || href);
      return `<a class="image-link" href="${escapeHtml(href)}" title="${escapeHtml(href)}">🖼 ${label}</a>`;
    },
  },
});

function linkHost(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'mailto:' ? url.pathname : url.host;
  } catch {
    return undefined;
  }
}

/** The only classes model HTML may carry: the ones our own renderer writes. */
const OWN_CLASSES: Record<string, RegExp> = {
  CODE: /^language-[\w+#.-]{1,40}$/,
  A: /^image-link$/,
  SPAN: /^(link-destination|code-language|math-inline|math-display)$/,
  DIV: /^(code-block|code-header|math-display)$/,
};
/** The only attributes a task checkbox keeps. */
const CHECKBOX_ATTRIBUTES = new Set(['type', 'checked', 'disabled', 'aria-label']);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
let purifier: ReturnType<typeof DOMPurify> | undefined;

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('uponSanitizeElement', (node, data) => {
    // The one input allowed: a task list's disabled checkbox (a live field could imitate the app's forms).
    const element = node as Element;
    if (data.tagName === 'input' && !(element.getAttribute('type') === 'checkbox' && element.hasAttribute('disabled'))) element.remove();
  });
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    if (node.nodeName === 'INPUT' && !CHECKBOX_ATTRIBUTES.has(data.attrName)) data.keepAttr = false;
    // The app's own classes and ids would let a model draw over the app (a fake dialog, a fake notice).
    if (data.attrName === 'id' || data.attrName === 'name') data.keepAttr = false;
    if (data.attrName === 'class' && !OWN_CLASSES[node.nodeName]?.test(data.attrValue)) data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    // Code blocks and tables scroll sideways when too wide; a keyboard can scroll only what it can focus.
    if (node.tagName === 'PRE' || node.tagName === 'TABLE') node.setAttribute('tabindex', '0');
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href');
    // Model output is untrusted: only plain web and mail links survive, and they open elsewhere.
    if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier;
}

/** img, video, audio and picture would load remote content by themselves (see the image renderer above). */
const FORBID_TAGS = ['style', 'form', 'button', 'textarea', 'select', 'option', 'dialog', 'img', 'video', 'audio', 'picture', 'source', 'svg', 'math'];
/** background (on tables) and poster fetch by themselves too; ping reports clicks to a third party. */
const FORBID_ATTR = ['style', 'background', 'poster', 'ping', 'srcset', 'id', 'name'];

/**
 * Renders untrusted Markdown to HTML that is safe to insert: marked's output (raw HTML included) goes
 * through DOMPurify, which drops scripts, event handlers, `javascript:` URLs, forms, styles and anything that
 * would fetch by itself (images become links). The app appends renderMarkdownFragment's nodes; this string form is
 * what the tests hold the incremental renderer to.
 */
export function renderMarkdown(text: string): string {
  return getPurifier().sanitize(markdown.parse(text) as string, { FORBID_TAGS, FORBID_ATTR });
}

/**
 * renderMarkdown as nodes to append: the sanitizer's own tree, so the HTML is not written out and parsed a second time
 * (that was a third of a streamed reply's rendering), and nothing is parsed after it was sanitized.
 */
export function renderMarkdownFragment(text: string): DocumentFragment {
  return sanitizedFragment(markdown.parse(text) as string);
}

/** The sanitizer alone, the second wall behind the renderer's escaping of raw HTML: `html` as safe nodes. */
export function sanitizedFragment(html: string): DocumentFragment {
  return getPurifier().sanitize(html, { FORBID_TAGS, FORBID_ATTR, RETURN_DOM_FRAGMENT: true });
}

/** The top-level blocks of `text` as this renderer's lexer sees them (for rendering only a growing tail again). */
export function lexMarkdown(text: string): ReturnType<Marked['lexer']> {
  return markdown.lexer(text);
}

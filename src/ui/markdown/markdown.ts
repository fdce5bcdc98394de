import { Marked } from 'marked';
import { t } from '../i18n/i18n';
import { mathsExtensions } from './maths/maths-syntax';
import { sanitize, SAFE_LINK } from './sanitize';

export { prepareSanitizer } from './sanitize';

/** Our own instance: configuring the global `marked` would leak into anyone else's use. */
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
/**
 * Renders untrusted Markdown to HTML that is safe to insert: marked's output (raw HTML included) goes through the
 * sanitizer (sanitize.ts), which drops scripts, event handlers, `javascript:` URLs, forms, styles and anything that
 * would fetch by itself (images become links). The app appends renderMarkdownFragment's nodes; this string form is
 * what the tests hold the incremental renderer to.
 */
export function renderMarkdown(text: string): string {
  const holder = document.createElement('div');
  holder.append(renderMarkdownFragment(text));
  return holder.innerHTML;
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
  return sanitize(html);
}

/** The top-level blocks of `text` as this renderer's lexer sees them (for rendering only a growing tail again). */
export function lexMarkdown(text: string): ReturnType<Marked['lexer']> {
  return markdown.lexer(text);
}

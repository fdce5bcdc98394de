import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/** Our own instances: configuring the global `marked` or `DOMPurify` would leak into anyone else's use. */
const markdown = new Marked({ gfm: true, breaks: true, async: false });
let purifier: ReturnType<typeof DOMPurify> | undefined;

const SAFE_LINK = /^(https?:|mailto:)/i;

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href');
    // Model output is untrusted: only plain web and mail links survive, and they open elsewhere.
    if (href !== null && !SAFE_LINK.test(href.trim())) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  return purifier;
}

/**
 * Renders untrusted Markdown to HTML that is safe to insert: marked's output (raw HTML included) goes
 * through DOMPurify, which drops scripts, event handlers, `javascript:` URLs, forms and styles.
 */
export function renderMarkdown(text: string): string {
  const html = markdown.parse(text) as string;
  return getPurifier().sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'dialog'],
    FORBID_ATTR: ['style'],
  });
}

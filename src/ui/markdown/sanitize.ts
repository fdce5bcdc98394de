/**
 * The sanitizer behind the Markdown renderer: model output is untrusted, so whatever markup reaches the page loses
 * scripts, event handlers, script URLs, forms, styles, anything that would fetch by itself, and the app's own classes
 * and ids (a model must not draw over the app). Where the browser has the HTML Sanitizer API its safe `setHTML` does
 * the parsing and the first cut; elsewhere DOMPurify is loaded for it (`purify-sanitize.ts`). Both then apply the same
 * rules below, so the two agree on what survives.
 */

export const SAFE_LINK = /^(https?:|mailto:)/i;

/** img, video, audio and picture would load remote content by themselves (the renderer makes images links). */
export const FORBID_TAGS = ['style', 'form', 'button', 'textarea', 'select', 'option', 'dialog', 'img', 'video', 'audio', 'picture', 'source', 'svg', 'math'];
/** background (on tables) and poster fetch by themselves too; ping reports clicks to a third party. */
export const FORBID_ATTR = ['style', 'background', 'poster', 'ping', 'srcset', 'id', 'name'];

/** The only classes model HTML may carry: the ones our own renderer writes. */
const OWN_CLASSES: Record<string, RegExp> = {
  CODE: /^language-[\w+#.-]{1,40}$/,
  A: /^image-link$/,
  SPAN: /^(link-destination|code-language|math-inline|math-display)$/,
  DIV: /^(code-block|code-header|math-display)$/,
};
/** The only attributes a task checkbox keeps. */
const CHECKBOX_ATTRIBUTES = new Set(['type', 'checked', 'disabled', 'aria-label']);
/** Attributes that name a URL; only a link's `href` is kept (and checked): the renderer writes no other. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data', 'codebase', 'cite', 'longdesc', 'usemap', 'manifest']);
const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** The one input allowed is a task list's disabled checkbox (a live field could imitate the app's forms). */
export function keepsElement(element: Element): boolean {
  if (element.namespaceURI !== HTML_NAMESPACE) return false;
  return element.tagName !== 'INPUT' || (element.getAttribute('type') === 'checkbox' && element.hasAttribute('disabled'));
}

export function keepsAttribute(element: Element, name: string, value: string): boolean {
  const attribute = name.toLowerCase();
  if (attribute.startsWith('on') || FORBID_ATTR.includes(attribute)) return false;
  if (element.tagName === 'INPUT' && !CHECKBOX_ATTRIBUTES.has(attribute)) return false;
  if (URL_ATTRIBUTES.has(attribute) && !(element.tagName === 'A' && attribute === 'href')) return false;
  // The app's own classes would let a model draw over the app (a fake dialog, a fake notice).
  if (attribute === 'class' && !OWN_CLASSES[element.tagName]?.test(value)) return false;
  return true;
}

/** What every kept element gets last: keyboard scrolling for wide blocks, and links that only go to the web or mail. */
export function finishElement(element: Element): void {
  // Code blocks and tables scroll sideways when too wide; a keyboard can scroll only what it can focus.
  if (element.tagName === 'PRE' || element.tagName === 'TABLE') element.setAttribute('tabindex', '0');
  if (element.tagName !== 'A') return;
  const href = element.getAttribute('href');
  if (href !== null && !SAFE_LINK.test(href.trim())) element.removeAttribute('href');
  element.setAttribute('target', '_blank');
  element.setAttribute('rel', 'noopener noreferrer');
}

export type Sanitize = (html: string) => DocumentFragment;

interface NativeSanitizerConfig {
  removeElements: (string | { name: string; namespace: string })[];
  removeAttributes: string[];
  comments: boolean;
}
type SetHtml = (html: string, options: { sanitizer: NativeSanitizerConfig }) => void;

/** The browser's own sanitizer, or undefined where it has none. */
function nativeSanitize(): Sanitize | undefined {
  if (typeof document === 'undefined' || typeof (HTMLTemplateElement.prototype as { setHTML?: SetHtml }).setHTML !== 'function') return undefined;
  const sanitizer: NativeSanitizerConfig = {
    removeElements: [
      ...FORBID_TAGS.filter((tag) => tag !== 'svg' && tag !== 'math'),
      'template',
      { name: 'svg', namespace: 'http://www.w3.org/2000/svg' },
      { name: 'math', namespace: 'http://www.w3.org/1998/Math/MathML' },
    ],
    removeAttributes: FORBID_ATTR,
    comments: false,
  };
  return (html) => {
    const template = document.createElement('template');
    (template as unknown as { setHTML: SetHtml }).setHTML(html, { sanitizer });
    for (const element of [...template.content.querySelectorAll('*')]) {
      if (!element.isConnected && element.getRootNode() !== template.content) continue;
      if (!keepsElement(element)) {
        element.remove();
        continue;
      }
      for (const { name, value } of [...element.attributes]) if (!keepsAttribute(element, name, value)) element.removeAttribute(name);
      finishElement(element);
    }
    return document.importNode(template.content, true);
  };
}

let native: Sanitize | undefined;
let chosen: Sanitize | undefined;

/** Makes `sanitize` usable: at once with the browser's sanitizer, after loading DOMPurify without one. */
export async function prepareSanitizer(): Promise<void> {
  native ??= nativeSanitize();
  chosen ??= native ?? (await import('./purify-sanitize')).purifySanitize();
}

/** Whether the browser's own sanitizer is in use (after `prepareSanitizer`). */
export function usesBrowserSanitizer(): boolean {
  return chosen !== undefined && chosen === native;
}

/** `html` as safe nodes to append. `prepareSanitizer` must have settled first. */
export function sanitize(html: string): DocumentFragment {
  if (!chosen) throw new Error('The sanitizer is not loaded yet: await prepareSanitizer() first.');
  return chosen(html);
}

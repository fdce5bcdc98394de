import DOMPurify from 'dompurify';
import { FORBID_ATTR, FORBID_TAGS, finishElement, keepsAttribute, keepsElement, type Sanitize } from './sanitize';

/** The sanitizer where the browser has no HTML Sanitizer API: DOMPurify's allow-list, then the rules of sanitize.ts. */
export function purifySanitize(): Sanitize {
  // Our own instance: configuring the global DOMPurify would leak into anyone else's use.
  const purifier = DOMPurify(window);
  purifier.addHook('uponSanitizeElement', (node) => {
    const element = node as Element;
    if (element.nodeType === 1 && !keepsElement(element)) element.remove();
  });
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    if (!keepsAttribute(node, data.attrName, data.attrValue)) data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => finishElement(node));
  return (html) => purifier.sanitize(html, { FORBID_TAGS, FORBID_ATTR, RETURN_DOM_FRAGMENT: true });
}

import type { MarkdownEnhancer } from './incremental-markdown';

type RichContent = typeof import('./rich-content');
let richContent: RichContent | undefined;
let loading: Promise<RichContent> | undefined;
/** Blocks that closed before the module arrived (they are then coloured whole). */
const closedEarly = new WeakSet<HTMLElement>();

const RICH = '.code-block, .math-inline, .math-display';

/**
 * What a message's Markdown gets on screen beyond sanitized HTML: code colours and "Copy code", and typeset maths. The
 * code for it loads with the first message that has a code block or maths, so the first load does not carry it.
 */
export const richMarkdown: MarkdownEnhancer = {
  added(fragment, openCode) {
    if (!fragment.querySelector(RICH)) return;
    if (richContent) {
      richContent.enhance(fragment, openCode);
      return;
    }
    // The fragment is emptied into the page before the module arrives: keep its top-level nodes.
    const roots = [...fragment.childNodes].filter((node): node is Element => node.nodeType === Node.ELEMENT_NODE);
    loading ??= import('./rich-content').then((module) => (richContent = module));
    void loading.then((module) => {
      const stillOpen = openCode && !closedEarly.has(openCode) ? openCode : undefined;
      for (const root of roots) if (root.isConnected) module.enhance(root, stillOpen);
    });
  },
  grew(code, closed) {
    if (richContent) richContent.grew(code, closed);
    else if (closed) closedEarly.add(code);
  },
};

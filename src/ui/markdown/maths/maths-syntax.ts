import type { TokenizerAndRendererExtension, Tokens } from 'marked';

/**
 * Maths in Markdown: `$…$` and `\(…\)` inline, `$$…$$` and `\[…\]` displayed. The renderer writes the TeX source as
 * text in a placeholder (`span.math-inline`, `div.math-display`); maths.ts typesets it later with KaTeX, from that text.
 * A `$` opens only before a non-space and closes only after one, not before a digit, so "$5 and $10" stays prose.
 * Display maths holds no blank line: the incremental renderer may finish a block at a blank line.
 */
const INLINE_RULES: { pattern: RegExp; display: boolean }[] = [
  { pattern: /^\$\$(?!\$)((?:\\[\s\S]|(?!\n[ \t]*\n)[^\\$])+?)\$\$/, display: true },
  { pattern: /^\\\[((?:(?!\n[ \t]*\n)[\s\S])+?)\\\]/, display: true },
  { pattern: /^\\\(((?:(?!\n[ \t]*\n)[\s\S])+?)\\\)/, display: false },
  { pattern: /^\$(?![\s$])((?:\\[\s\S]|[^\\$\n])+?)(?<![\s\\])\$(?!\d)/, display: false },
];
const BLOCK_RULE = /^ {0,3}(\$\$|\\\[)((?:(?!\n[ \t]*\n)[\s\S])+?)(\$\$|\\\])[ \t]*(?:\n|$)/;
const CLOSER: Record<string, string> = { $$: '$$', '\\[': '\\]' };

interface MathsToken extends Tokens.Generic {
  tex: string;
  display: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A block is a div; inside a paragraph even displayed maths is a span (a div would end the paragraph). */
function renderPlaceholder(token: Tokens.Generic): string {
  const { tex, display } = token as MathsToken;
  const source = escapeHtml(tex.trim());
  if (token.type === 'mathsBlock') return `<div class="math-display">${source}</div>\n`;
  return `<span class="${display ? 'math-display' : 'math-inline'}">${source}</span>`;
}

/** marked extensions for the delimiters above (they run before marked's own escapes, so `\(` reaches them). */
export const mathsExtensions: TokenizerAndRendererExtension[] = [
  {
    name: 'mathsBlock',
    level: 'block',
    tokenizer(source) {
      const match = BLOCK_RULE.exec(source);
      if (!match || CLOSER[match[1]!] !== match[3] || match[2]!.trim() === '') return undefined;
      return { type: 'mathsBlock', raw: match[0], tex: match[2]!, display: true } satisfies MathsToken;
    },
    renderer: renderPlaceholder,
  },
  {
    name: 'mathsInline',
    level: 'inline',
    start(source) {
      const index = source.search(/\$|\\[([]/);
      return index < 0 ? undefined : index;
    },
    tokenizer(source) {
      for (const rule of INLINE_RULES) {
        const match = rule.pattern.exec(source);
        if (match && match[1]!.trim() !== '') return { type: 'mathsInline', raw: match[0], tex: match[1]!, display: rule.display } satisfies MathsToken;
      }
      return undefined;
    },
    renderer: renderPlaceholder,
  },
];

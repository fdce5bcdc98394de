/**
 * What the Markdown export (`conversation-markdown.ts`) hands each kind's `markdown` (ui/messages/block-views.tsx,
 * ui/requests/request-views.ts): those entries load with the page, so they only call these, and the code behind them
 * loads with the export.
 */
export interface MarkdownKit {
  /** A reply's Markdown, its headings moved below the export's own `## You` / `## Parley`. */
  prose(markdown: string): string;
  /** Every line quoted (`> `). */
  quote(text: string): string;
  /** A fenced block that no backtick run inside `text` can close early. */
  fence(text: string, language?: string): string;
}

import { createMemo } from 'solid-js';
import { renderMarkdown } from '../markdown';

/** Model text as sanitized Markdown. Re-renders when `text` grows while streaming. */
export function Markdown(props: { text: string }) {
  const html = createMemo(() => renderMarkdown(props.text));
  return <div class="markdown" innerHTML={html()} />;
}

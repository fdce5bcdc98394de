import fc from 'fast-check';
import { render } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../src/ui/markdown/Markdown';
import hljs from 'highlight.js/lib/core';
import { vi } from 'vitest';
import { waitFor } from '@solidjs/testing-library';
import { IncrementalMarkdown } from '../../src/ui/markdown/incremental-markdown';
import { renderMarkdown } from '../../src/ui/markdown/markdown';

/** What rendering the whole text at once puts in the DOM (the sanitizer's output, parsed as the page would). */
function atOnce(text: string): string {
  const element = document.createElement('div');
  element.innerHTML = renderMarkdown(text);
  return element.innerHTML;
}

/** Lines a model writes, including the ones that reach back (lists, lazy lines, fences, definitions, HTML). */
const line = fc.oneof(
  fc.constantFrom(
    '',
    '',
    'A paragraph with **bold** and `code`.',
    'more words',
    '# Heading',
    'Setext',
    '===',
    '---',
    '- item',
    '- other item',
    '* star item',
    '  - nested item',
    '    - deeper item',
    '  continued item text',
    '1. first',
    '2. second',
    '10) tenth',
    '> quoted',
    'lazy continuation',
    '```',
    '```js',
    '~~~',
    '    indented code',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '<div>raw html</div>',
    '<!-- comment',
    '-->',
    '[ref]: https://example.com/ref',
    'See [ref] and [link](https://example.com/x "t").',
    '![image](https://example.com/i.png)',
    '<script>alert(1)</script>',
    '- [ ] task',
    '- [x] done task',
    'Maths $x^2$ and \\(y\\) inline',
    '$$',
    '$$a+b$$',
    '\\[c\\]',
    'cost $5 and $10',
    '    ```',
    '````',
  ),
  fc.string({ maxLength: 12 }),
);
const markdownText = fc.array(line, { maxLength: 30 }).map((lines) => lines.join('\n'));

describe('incremental Markdown', () => {
  it('renders a text streamed in any chunks exactly as rendering each prefix at once', () => {
    fc.assert(
      fc.property(markdownText, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }), (text, steps) => {
        const container = document.createElement('div');
        const view = new IncrementalMarkdown(container);
        let length = 0;
        for (const step of steps) {
          length = Math.min(text.length, length + step);
          view.update(text.slice(0, length));
          expect(container.innerHTML).toBe(atOnce(text.slice(0, length)));
        }
        view.update(text);
        expect(container.innerHTML).toBe(atOnce(text));
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('keeps what follows a list that was split between items (found by the property test)', () => {
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container);
    view.update('1');
    view.update('1. first\n2. second\n\n<!-- comment');
    expect(container.innerHTML).toBe(atOnce('1. first\n2. second\n\n<!-- comment'));
  });

  it('renders a long nested list streamed in small chunks exactly as at once', () => {
    const text = Array.from({ length: 200 }, (_, index) => `${'  '.repeat(index % 6)}- item ${index} with **bold**`).join('\n');
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container);
    for (let length = 0; length < text.length; length += 251) view.update(text.slice(0, length));
    view.update(text);
    expect(container.innerHTML).toBe(atOnce(text));
    expect(container.querySelectorAll(':scope > ul')).toHaveLength(1);
  }, 30_000);

  it('leaves an empty open fence empty when the same text comes again (found by the property test)', () => {
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container);
    for (const text of ['`', '````\n', '````\n']) view.update(text);
    expect(container.innerHTML).toBe(atOnce('````\n'));
  });

  it('keeps finished list items in place when the text so far ends at a line end', () => {
    const text = Array.from({ length: 120 }, (_, index) => `${'  '.repeat(index % 40)}- item ${index}`).join('\n');
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container);
    view.update(text.slice(0, 10));
    // Streamed up to a line end: the lexer trims the last item's raw text, yet the items before it are finished.
    view.update(text.slice(0, text.indexOf('\n', text.indexOf('- item 82')) + 1));
    const first = container.querySelector('li');
    view.update(text);
    expect(container.querySelector('li')).toBe(first);
    expect(container.innerHTML).toBe(atOnce(text));
  });

  it('starts again when the text is replaced rather than extended', () => {
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container);
    view.update('first paragraph\n\nsecond\n\nthird');
    view.update('other text\n\n- a');
    expect(container.innerHTML).toBe(atOnce('other text\n\n- a'));
  });

  it('shows a text nested too deep for the parser as plain text instead of throwing', () => {
    const deep = '>'.repeat(20_000) + ' deep';
    const container = document.createElement('div');
    expect(() => new IncrementalMarkdown(container).update(deep)).not.toThrow();
    expect(container).toHaveTextContent('deep');
  }, 30_000);

  it('keeps every security property while streaming: raw HTML as text, no script, link hosts shown', () => {
    const [text, setText] = createSignal('');
    const { container } = render(() => <Markdown text={text()} />);
    const full = 'Intro\n\n<img src=x onerror=alert(1)> and <b class="dialog" id="app">bold</b>\n\n- [Sign in](https://evil.example/login)\n- <script>alert(1)</script>\n\nEnd';
    for (let length = 1; length <= full.length; length += 5) setText(full.slice(0, length));
    setText(full);
    expect(container.querySelector('img, script, [onerror], [id], .dialog')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(container.querySelector('a')).toHaveTextContent('Sign in (evil.example)');
  });
});

describe('a streamed code block', () => {
  // 400 comments: 57 over two lines, the rest at line ends.
  const code = Array.from({ length: 400 }, (_, index) => (index % 7 === 3 ? '/* a comment\n   over two lines */' : `let value${index} = ${index}; // n`)).join('\n');
  const full = `Intro\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter.`;

  it('grows in place: the code element and its first text stay the same nodes, and the DOM is as at once', () => {
    const container = document.createElement('div');
    const view = new IncrementalMarkdown(container);
    // The first update renders at once; from the second the open fence is known and grows in place.
    view.update(full.slice(0, 30));
    view.update(full.slice(0, 40));
    const element = container.querySelector('pre code');
    expect(element).not.toBeNull();
    for (let length = 40; length < full.length; length += 97) {
      view.update(full.slice(0, length));
      expect(container.innerHTML).toBe(atOnce(full.slice(0, length)));
    }
    view.update(full);
    expect(container.querySelector('pre code')).toBe(element);
    expect(container.innerHTML).toBe(atOnce(full));
  });

  it('is coloured line by line as it streams: each character goes through the highlighter about once, not per update', async () => {
    const highlight = vi.spyOn(hljs, 'highlight');
    const [text, setText] = createSignal('');
    const { container } = render(() => <Markdown text={text()} />);
    for (let length = 0; length <= full.length; length += 120) {
      setText(full.slice(0, length));
      // Time for the colours to catch up, as between a real stream's tokens.
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    setText(full);
    const block = () => container.querySelector('pre code')!;
    await waitFor(() => expect(block().querySelectorAll('.hljs-comment')).toHaveLength(400), { timeout: 15_000 });
    expect(block().textContent).toBe(`${code}\n`);
    const coloured = highlight.mock.calls.reduce((sum, [source]) => sum + (source as string).length, 0);
    // Chunks that end inside a comment are tried again longer, so somewhat more than once; never once per update.
    expect(coloured).toBeLessThan(code.length * 2);
    highlight.mockRestore();
  }, 30_000);
});

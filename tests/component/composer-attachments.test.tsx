import { fireEvent, render, screen, within } from '@solidjs/testing-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../../src/ui/chat/Composer';
import { MessageAttachments } from '../../src/ui/attachments/AttachmentChips';
import { MAX_TEXT_BYTES } from '../../src/schema/attachments/attachment-kinds';
import { setLocale } from '../../src/ui/i18n/i18n';

const png = (name = 'shot.png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const markdown = (name = 'notes.md', text = '# Notes') => new File([text], name, { type: '' });

function setup(options: { acceptsImages?: boolean; onSend?: (text: string, files: readonly File[]) => Promise<boolean> } = {}) {
  const onSend = vi.fn(options.onSend ?? (async () => true));
  const conversationId = `c-${Math.random()}`;
  const { container } = render(() => <Composer conversationId={conversationId} runState="idle" modelProfile={{ kind: 'openai-compatible', acceptsImages: options.acceptsImages ?? true }} onSend={onSend} onStop={() => undefined} />);
  const input = container.querySelector('input[type=file]') as HTMLInputElement;
  const choose = (...files: File[]) => fireEvent.change(input, { target: { files } });
  const textbox = screen.getByRole('textbox', { name: 'Message' });
  return { onSend, choose, textbox };
}

const chips = () => screen.findByRole('list', { name: 'Attachments' });
const chipNames = async () => within(await chips()).getAllByRole('listitem').map((item) => item.textContent);

describe('Composer: files', () => {
  // jsdom has no object URLs: a thumbnail's URL is made and revoked by the chip, which is what is checked here.
  const revoked: string[] = [];
  beforeEach(() => {
    revoked.length = 0;
    let next = 0;
    URL.createObjectURL = () => `blob:test/${(next += 1)}`;
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
  });
  afterEach(() => {
    delete (URL as { createObjectURL?: unknown }).createObjectURL;
    delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
  });

  it('shows chosen files as a thumbnail or a chip with name and size, each removable, and sends them with the text', async () => {
    const { choose, textbox, onSend } = setup();
    choose(png(), markdown());
    expect(await chipNames()).toEqual(['shot.png, 4 bytes', 'notes.md, 7 bytes']);
    expect((await chips()).querySelector('img')?.getAttribute('src')).toBe('blob:test/1');

    const [image] = within(await chips()).getAllByRole('listitem');
    fireEvent.click(within(image!).getByRole('button', { name: 'Remove attachment' }));
    expect(await chipNames()).toEqual(['notes.md, 7 bytes']);
    expect(revoked).toEqual(['blob:test/1']); // the thumbnail's URL goes with its chip

    fireEvent.input(textbox, { target: { value: 'Read this' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('Read this', [expect.objectContaining({ name: 'notes.md' })]);
    await vi.waitFor(() => expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull());
  });

  it('a Send pressed while the files just chosen are still being checked sends them with the message, not the next', async () => {
    const { choose, textbox, onSend } = setup();
    fireEvent.input(textbox, { target: { value: 'Look' } });
    choose(png(), markdown());
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSend).toHaveBeenCalled());
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Look', [expect.objectContaining({ name: 'shot.png' }), expect.objectContaining({ name: 'notes.md' })]);
    await vi.waitFor(() => expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull());
  });

  it('sends files without text', async () => {
    const { choose, onSend } = setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    choose(markdown());
    await chips();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [expect.objectContaining({ name: 'notes.md' })]);
  });

  it('refuses, in words, a file of no accepted kind, one too large and an image for a text-only model, keeping the text and the others', async () => {
    const { choose, textbox } = setup({ acceptsImages: false });
    fireEvent.input(textbox, { target: { value: 'Typed first' } });
    choose(markdown('keep.md'));
    choose(new File(['PK'], 'archive.zip', { type: 'application/zip' }), new File(['x'.repeat(MAX_TEXT_BYTES * 1.5)], 'huge.csv', { type: 'text/csv' }), png('photo.png'), markdown('also.md'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('“archive.zip” was not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files');
    expect(alert).toHaveTextContent('“huge.csv” was not attached: it is 1.5 MB, and the limit for this kind of file is 1 MB.');
    expect(alert).toHaveTextContent('“photo.png” was not attached: this model does not accept images.');
    expect(await chipNames()).toEqual(['keep.md, 7 bytes', 'also.md, 7 bytes']);
    expect(textbox).toHaveValue('Typed first');
  });

  it('refuses a binary file named .txt as it is offered, by its first bytes, in the words of any file of no accepted kind', async () => {
    const { choose } = setup();
    // NUL bytes, and (in a file longer than what is read) bytes that are not UTF-8; a file cut inside a character is text.
    const invalidAfterStart = new Uint8Array(20_000).fill(0x61);
    invalidAfterStart[100] = 0xff;
    const euro = new TextEncoder().encode('€'.repeat(5_000)); // 15,000 bytes: the first 8 KB end inside a character
    choose(new File([new Uint8Array([0x89, 0x50, 0, 0, 0x12])], 'binary.txt', { type: 'text/plain' }), new File([invalidAfterStart], 'latin1.csv', { type: 'text/csv' }), new File([euro], 'euros.txt', { type: 'text/plain' }));
    const alert = await screen.findByRole('alert');
    // Refused for one reason, the two are one sentence (see "Files and images" in the README).
    expect(alert).toHaveTextContent('“binary.txt” and “latin1.csv” were not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files (code, Markdown, CSV, JSON, plain text), not these kinds of file.');
    expect(await chipNames()).toEqual(['euros.txt, 15 KB']);
  });

  it('keeps the text and the files when the send is refused', async () => {
    const { choose, textbox } = setup({ onSend: async () => false });
    choose(markdown());
    fireEvent.input(textbox, { target: { value: 'Try me' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    expect(await chipNames()).toEqual(['notes.md, 7 bytes']);
    expect(textbox).toHaveValue('Try me');
  });

  it('attaches pasted files, leaving pasted text to the field', async () => {
    const { textbox } = setup();
    fireEvent.paste(textbox, { clipboardData: { files: [png('pasted.png')], getData: () => '' } });
    expect(await chipNames()).toEqual(['pasted.png, 4 bytes']);
  });

  it('takes at most ten files, saying so once', async () => {
    const { choose } = setup();
    choose(...Array.from({ length: 12 }, (_, index) => markdown(`f${index}.md`)));
    expect(await chipNames()).toHaveLength(10);
    expect(await screen.findAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('At most 10 files can go with one message, so the rest were not attached.');
  });

  it('shows a bidi control in a file name as its code point, isolated, in chips, refusals and sent messages', async () => {
    const { choose } = setup();
    // "notes\u202Edm.md" would read "notesmd.md"; "report\u202Etxt.pdf" would read "reportfdp.txt".
    choose(markdown('notes\u202Edm.md'), new File(['%PDF'], 'report\u202Etxt.pdf', { type: 'application/pdf' }));
    expect(await chipNames()).toEqual(['notes⟨U+202E⟩dm.md, 7 bytes']);
    const chipName = (await chips()).querySelector('bdi');
    expect(chipName?.textContent).toBe('notes⟨U+202E⟩dm.md');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('“report⟨U+202E⟩txt.pdf” was not attached: Parley can send images');
    expect(alert.querySelector('bdi')?.textContent).toBe('report⟨U+202E⟩txt.pdf');
    expect(alert.textContent).not.toContain('\u202E');

    render(() => <MessageAttachments attachments={[{ id: 'a1', name: 'invoice\u2067fdp.exe\u2069.txt', mimeType: 'text/plain', size: 3, kind: 'text' }]} client={{ send: () => Promise.reject(new Error('not used')) }} />);
    const sent = screen.getByRole('list', { name: 'Files sent with this message' });
    expect(sent.querySelector('bdi')?.textContent).toBe('invoice⟨U+2067⟩fdp.exe⟨U+2069⟩.txt');
  });

  it('says files refused for one reason in one sentence listing their names, in Chinese too, each name isolated', async () => {
    const { choose } = setup();
    await setLocale('zh-CN');
    try {
      choose(new File(['PK'], 'a.zip', { type: 'application/zip' }), new File(['%PDF'], 'report\u202Etxt.pdf', { type: 'application/pdf' }), new File(['x'], 'c.exe', { type: '' }));
      const alert = await screen.findByRole('alert');
      expect(alert.querySelectorAll('p')).toHaveLength(1);
      expect(alert).toHaveTextContent('未添加“a.zip”、“report⟨U+202E⟩txt.pdf”和“c.exe”：Parley 只能发送图片');
      expect([...alert.querySelectorAll('bdi')].map((name) => name.textContent)).toEqual(['a.zip', 'report⟨U+202E⟩txt.pdf', 'c.exe']);
    } finally {
      await setLocale('en');
    }
  });

  it('opens a sent image larger in a dialog named by the file, and closes it with Esc', async () => {
    const blob = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    render(() => <MessageAttachments attachments={[{ id: 'i1', name: 'shot.png', mimeType: 'image/png', size: 4, kind: 'image' }]} client={{ send: () => Promise.resolve({ blob }) as never }} />);
    fireEvent.click(await screen.findByRole('button', { name: 'View shot.png' }));
    const dialog = screen.getByRole('dialog', { name: 'shot.png' });
    expect(within(dialog).getByRole('img', { name: 'shot.png' })).toHaveAttribute('src', expect.stringMatching(/^blob:test\//));
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

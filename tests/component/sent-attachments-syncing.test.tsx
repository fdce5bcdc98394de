import { render, screen, within } from '@solidjs/testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageAttachments } from '../../src/ui/attachments/AttachmentChips';
import type { AppEvent } from '../../src/schema/events';
import { WireError } from '../../src/schema/wire-error';
import { setLocale } from '../../src/ui/i18n/i18n';

// A file another device sent whose bytes have not reached this one (README, "Sync between your devices"): the message
// says so in words, never a broken image, and shows the image once sync says it is here.

const IMAGE = { id: 'i1', name: 'photo.png', mimeType: 'image/png', size: 4, kind: 'image' as const };
const NOTES = { id: 't1', name: 'notes.md', mimeType: 'text/markdown', size: 7, kind: 'text' as const };

/** A worker whose files are still syncing until `arrive` stores one and says so. */
function syncingClient() {
  const here = new Set<string>();
  const listeners = new Set<(event: AppEvent) => void>();
  const blob = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
  return {
    client: {
      send: (command: { attachmentId: string }) =>
        here.has(command.attachmentId) ? Promise.resolve({ blob, mimeType: 'image/png' }) : Promise.reject(new WireError({ code: 'not_found', reason: 'attachment_syncing', message: 'still syncing' })),
      onEvent: (listener: (event: AppEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } as never,
    arrive(attachmentId: string) {
      here.add(attachmentId);
      for (const listener of listeners) listener({ type: 'attachment-arrived', attachmentId });
    },
  };
}

describe('sent files still syncing', () => {
  beforeEach(() => {
    let next = 0;
    URL.createObjectURL = () => `blob:test/${(next += 1)}`;
    URL.revokeObjectURL = () => undefined;
  });
  afterEach(async () => {
    delete (URL as { createObjectURL?: unknown }).createObjectURL;
    delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
    await setLocale('en');
  });

  it('says "not here yet" with the file’s name and no image, then shows the image once it has arrived', async () => {
    const { client, arrive } = syncingClient();
    render(() => <MessageAttachments attachments={[IMAGE, NOTES]} client={client} />);
    const items = within(screen.getByRole('list', { name: 'Files sent with this message' })).getAllByRole('listitem');
    await within(items[0]!).findByText('Image not here yet — it is still syncing');
    expect(items[0]).toHaveTextContent('photo.png');
    expect(items[0]!.querySelector('img')).toBeNull();
    expect(within(items[1]!).getByText('File not here yet — it is still syncing')).toBeInTheDocument();

    arrive(IMAGE.id);
    const view = await within(items[0]!).findByRole('button', { name: 'View photo.png' });
    expect(view.querySelector('img')).toHaveAttribute('src', expect.stringMatching(/^blob:test\//));
    expect(within(items[0]!).queryByText(/not here yet/)).toBeNull();
    // The other file is still on its way, and still says so.
    expect(within(items[1]!).getByText('File not here yet — it is still syncing')).toBeInTheDocument();
  });

  it('shows the bytes the arrival carries without asking the worker again (busy with the rest of what sync brings)', async () => {
    const { client, emit, reads } = (() => {
      const listeners = new Set<(event: AppEvent) => void>();
      const counted = { reads: 0 };
      return {
        client: {
          send: () => {
            counted.reads += 1;
            return Promise.reject(new WireError({ code: 'not_found', reason: 'attachment_syncing', message: 'still syncing' }));
          },
          onEvent: (listener: (event: AppEvent) => void) => {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
        } as never,
        emit: (event: AppEvent) => listeners.forEach((listener) => listener(event)),
        reads: () => counted.reads,
      };
    })();
    render(() => <MessageAttachments attachments={[IMAGE]} client={client} />);
    await screen.findByText('Image not here yet — it is still syncing');
    expect(reads()).toBe(1);
    emit({ type: 'attachment-arrived', attachmentId: IMAGE.id, blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }) });
    const view = await screen.findByRole('button', { name: 'View photo.png' });
    expect(view.querySelector('img')).toHaveAttribute('src', expect.stringMatching(/^blob:test\//));
    expect(reads()).toBe(1);
  });

  it('shows the image when it arrives while the first read is still on its way, and that read then says "still syncing"', async () => {
    // The worker answers a read after the rest of what sync brings: its answer, worked out before the file was stored,
    // can come after the arrival was heard.
    const listeners = new Set<(event: AppEvent) => void>();
    let answerRead!: () => void;
    const client = {
      send: () => new Promise((_, reject) => (answerRead = () => reject(new WireError({ code: 'not_found', reason: 'attachment_syncing', message: 'still syncing' })))),
      onEvent: (listener: (event: AppEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } as never;
    render(() => <MessageAttachments attachments={[IMAGE]} client={client} />);
    await Promise.resolve();
    for (const listener of listeners) listener({ type: 'attachment-arrived', attachmentId: IMAGE.id, blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }) });
    const view = await screen.findByRole('button', { name: 'View photo.png' });
    answerRead();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('button', { name: 'View photo.png' })).toBe(view);
    expect(view.querySelector('img')).toHaveAttribute('src', expect.stringMatching(/^blob:test\//));
    expect(screen.queryByText(/not here yet/)).toBeNull();
  });

  it('says the storage is full when the file arrived but could not be stored, and goes on saying it', async () => {
    const listeners = new Set<(event: AppEvent) => void>();
    let full = false;
    const client = {
      send: () => Promise.reject(full ? new WireError({ code: 'storage_full', message: 'The browser has no storage space left.' }) : new WireError({ code: 'not_found', reason: 'attachment_syncing', message: 'still syncing' })),
      onEvent: (listener: (event: AppEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    } as never;
    render(() => <MessageAttachments attachments={[IMAGE, NOTES]} client={client} />);
    const items = within(screen.getByRole('list', { name: 'Files sent with this message' })).getAllByRole('listitem');
    await within(items[0]!).findByText('Image not here yet — it is still syncing');
    full = true;
    for (const listener of listeners) listener({ type: 'attachment-arrived', attachmentId: IMAGE.id });
    await within(items[0]!).findByText('Image not saved on this device — the browser storage is full');
    expect(within(items[0]!).queryByText(/not here yet/)).toBeNull();
    expect(items[0]!.querySelector('img')).toBeNull();
    // Only the file the word was about is read again.
    expect(within(items[1]!).getByText('File not here yet — it is still syncing')).toBeInTheDocument();
  });

  it('says it in Chinese too', async () => {
    await setLocale('zh-CN');
    const { client } = syncingClient();
    render(() => <MessageAttachments attachments={[IMAGE]} client={client} />);
    expect(await screen.findByText('图片尚未到达此设备——仍在同步中')).toBeInTheDocument();
  });
});

import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { AttachmentMeta } from '../../src/schema/attachments/attachments';
import { bytesAreText, classifyAttachment, MAX_IMAGE_BYTES, MAX_TEXT_BYTES, refusalOf } from '../../src/schema/attachments/attachment-kinds';
import { ConversationExport } from '../../src/schema/records';
import { validateImport } from '../../src/core/transfer/import-validation';
import { messageText } from '../../src/core/run/message-text';
import type { Message } from '../../src/schema/records';

/** The smallest PNG: a 1×1 transparent pixel (67 bytes). */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (character) => character.charCodeAt(0));
const image = (name = 'pixel.png') => ({ name, type: 'image/png', blob: new Blob([PNG], { type: 'image/png' }) });
const textFile = (name = 'notes.md', text = '# Notes\nBuy milk.') => ({ name, type: '', blob: new Blob([text]) });
const ECHO = { text: 'Files: {{attachments}}' };

async function newTab(options: { estimateStorage?: () => Promise<{ usage?: number; quota?: number }> } = {}): Promise<TestTab> {
  const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), ...options });
  await tab.send({ type: 'settings.update', script: script([ECHO, ECHO]) });
  return tab;
}

const replyOf = async (tab: TestTab, conversationId: string): Promise<string> => messageText((await tab.host.store.listMessages(conversationId)).at(-1)!);
const storedFiles = async (tab: TestTab, messageId: string) =>
  Promise.all(((await tab.host.store.getMessage(messageId))?.attachments ?? []).map((meta) => tab.host.store.readAttachment(meta.id)));

describe('what can be attached (the rules the composer and the worker share)', () => {
  it('takes the images providers read and text files by type or by extension, and nothing else', () => {
    expect(classifyAttachment('photo.JPG', 'image/jpeg')).toEqual({ kind: 'image', mimeType: 'image/jpeg' });
    expect(classifyAttachment('main.ts', '')).toEqual({ kind: 'text', mimeType: 'text/x-typescript' });
    // Windows gives .ts files the MPEG transport stream type: the extension decides.
    expect(classifyAttachment('main.ts', 'video/mp2t')).toEqual({ kind: 'text', mimeType: 'text/x-typescript' });
    expect(classifyAttachment('data.csv', 'text/csv')).toEqual({ kind: 'text', mimeType: 'text/csv' });
    // Chromium on Linux calls .ts Qt Linguist: for an extension Parley knows, the name decides what the model is told.
    expect(classifyAttachment('helper.ts', 'text/vnd.trolltech.linguist')).toEqual({ kind: 'text', mimeType: 'text/x-typescript' });
    expect(classifyAttachment('README.md', 'text/x-markdown')).toEqual({ kind: 'text', mimeType: 'text/markdown' });
    expect(classifyAttachment('table.CSV', 'application/vnd.ms-excel')).toEqual({ kind: 'text', mimeType: 'text/csv' });
    expect(classifyAttachment('main.go', 'text/plain')).toEqual({ kind: 'text', mimeType: 'text/x-go' });
    // An extension Parley does not list keeps the browser's text type.
    expect(classifyAttachment('notes.adoc', 'text/asciidoc')).toEqual({ kind: 'text', mimeType: 'text/asciidoc' });
    expect(classifyAttachment('config', 'application/json')).toEqual({ kind: 'text', mimeType: 'application/json' });
    expect(classifyAttachment('archive.zip', 'application/zip')).toBeUndefined();
    expect(classifyAttachment('clip.mp4', 'video/mp4')).toBeUndefined();
    // SVG is not sent as an image (a document, not pixels); as text, by its extension.
    expect(classifyAttachment('logo.svg', 'image/svg+xml')?.kind).toBe('text');
  });

  it('tells text from binary by the bytes: UTF-8 with no NUL; the start of a file may end inside a character', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(bytesAreText(encode('plain ASCII, 中文 and €'))).toBe(true);
    expect(bytesAreText(new Uint8Array([0x61, 0, 0x62]))).toBe(false);
    expect(bytesAreText(new Uint8Array([0x61, 0xff, 0x62]))).toBe(false);
    const cut = encode('€').slice(0, 2);
    expect(bytesAreText(cut, true)).toBe(true);
    expect(bytesAreText(cut)).toBe(false);
  });

  it('refuses by kind, size, count and model, in that order, naming the file', () => {
    expect(refusalOf({ name: 'a.zip', type: 'application/zip', size: 1 }, 0, true)).toEqual({ reason: 'unsupported_type', name: 'a.zip' });
    expect(refusalOf({ name: 'big.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 }, 0, true)).toEqual({ reason: 'too_large', name: 'big.png', size: MAX_IMAGE_BYTES + 1, limit: MAX_IMAGE_BYTES });
    expect(refusalOf({ name: 'big.md', type: '', size: MAX_TEXT_BYTES + 1 }, 0, true)).toMatchObject({ reason: 'too_large', limit: MAX_TEXT_BYTES });
    expect(refusalOf({ name: 'a.md', type: '', size: 1 }, 10, true)).toEqual({ reason: 'too_many', limit: 10 });
    expect(refusalOf({ name: 'a.png', type: 'image/png', size: 1 }, 0, false)).toEqual({ reason: 'images_not_accepted', name: 'a.png' });
    expect(refusalOf({ name: 'a.md', type: '', size: MAX_TEXT_BYTES }, 9, false)).toBeUndefined();
  });

  it('keeps a message’s attachment metadata within bounds', () => {
    const meta = { id: 'a1', name: 'x.png', mimeType: 'image/png', size: 67, kind: 'image' };
    expect(AttachmentMeta.parse(meta)).toEqual(meta);
    expect(AttachmentMeta.safeParse({ ...meta, kind: 'video' }).success).toBe(false);
    expect(AttachmentMeta.safeParse({ ...meta, size: MAX_IMAGE_BYTES + 1 }).success).toBe(false);
    expect(AttachmentMeta.safeParse({ ...meta, name: '' }).success).toBe(false);
  });
});

describe('sending files with a message', () => {
  it('stores them with the message in one write and reads them back for the model, which echoes what it received', async () => {
    const tab = await newTab();
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    const message = (await tab.send({ type: 'message.send', conversationId, text: 'Look', attachments: [image(), textFile()] })).message!;
    expect(message.attachments).toEqual([
      { id: expect.any(String), name: 'pixel.png', mimeType: 'image/png', size: PNG.length, kind: 'image' },
      { id: expect.any(String), name: 'notes.md', mimeType: 'text/markdown', size: 17, kind: 'text' },
    ]);
    const files = await storedFiles(tab, message.id);
    expect(files.map((file) => file?.messageId)).toEqual([message.id, message.id]);
    expect(new Uint8Array(await files[0]!.blob.arrayBuffer())).toEqual(PNG);
    await waitForRunState(tab, conversationId, ['idle']);
    expect(await replyOf(tab, conversationId)).toBe(`Files: pixel.png (image/png, ${PNG.length} bytes), notes.md (text/markdown, 17 bytes)`);
  });

  it('sends files without text, and titles the conversation after them', async () => {
    const tab = await newTab();
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: '', attachments: [textFile('plan.csv', 'a,b')] });
    expect((await tab.host.store.getConversation(conversationId))?.title).toBe('plan.csv');
    await expect(tab.send({ type: 'message.send', conversationId, text: '' })).rejects.toMatchObject({ reason: 'message_empty' });
  });

  it('refuses, writing nothing, a file nothing accepts, a binary file named as text, an image for a text-only model, and files over the quota', async () => {
    const tab = await newTab({ estimateStorage: async () => ({ usage: 990, quota: 1000 }) });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    const send = (attachments: Array<{ name: string; type: string; blob: Blob }>) => tab.send({ type: 'message.send', conversationId, text: 'hi', attachments });
    await expect(send([{ name: 'a.zip', type: 'application/zip', blob: new Blob(['PK']) }])).rejects.toMatchObject({ reason: 'attachment_unsupported', params: { name: 'a.zip' } });
    await expect(send([{ name: 'fake.txt', type: 'text/plain', blob: new Blob([new Uint8Array([0x50, 0, 0xff])]) }])).rejects.toMatchObject({ reason: 'attachment_unsupported' });
    await expect(send([image()])).rejects.toMatchObject({ code: 'storage_full', reason: 'attachments_over_quota', params: { needed: PNG.length, available: 10 } });
    const textOnly = await tab.send({ type: 'profiles.save', profile: { name: 'Text only', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', acceptsImages: false } });
    await tab.send({ type: 'conversation.setProfile', conversationId, profileId: textOnly.id });
    await expect(send([textFile(), image()])).rejects.toMatchObject({ reason: 'images_not_accepted', params: { name: 'pixel.png' } });
    expect(await tab.host.store.listMessages(conversationId)).toEqual([]);
    expect((await tab.host.store.getConversation(conversationId))?.runState).toBe('idle');
  });

  it('tells the model’s step, before any request, that its model takes no images when the history holds one', async () => {
    let requests = 0;
    const tab = await openTab({
      databaseName: uniqueDatabaseName(),
      locks: memoryLocks(),
      createModel: async () => ({
        async *streamStep() {
          requests += 1;
          yield { type: 'finish' as const };
        },
      }),
    });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'See', attachments: [image()] });
    await waitForRunState(tab, conversationId, ['idle']);
    expect(requests).toBe(1);
    // The profile changes under the conversation to one without images: the next step says so and sends nothing.
    const textOnly = await tab.send({ type: 'profiles.save', profile: { name: 'Text only', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', acceptsImages: false } });
    await tab.send({ type: 'conversation.setProfile', conversationId, profileId: textOnly.id });
    await tab.send({ type: 'message.send', conversationId, text: 'And now?' });
    await waitForRunState(tab, conversationId, ['error']);
    expect(requests).toBe(1);
    expect((await tab.host.store.getConversation(conversationId))?.runError?.code).toBe('images_not_accepted');
  });

  it('keeps the files with an edited version, and deletes a version’s and a conversation’s files with them', async () => {
    const tab = await newTab();
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    const first = (await tab.send({ type: 'message.send', conversationId, text: 'One', attachments: [textFile()] })).message!;
    await waitForRunState(tab, conversationId, ['idle']);
    const { message: edited } = await tab.send({ type: 'message.edit', conversationId, messageId: first.id, text: 'One, edited' });
    await waitForRunState(tab, conversationId, ['idle']);
    expect(edited.attachments?.map((meta) => meta.name)).toEqual(['notes.md']);
    expect(edited.attachments?.[0]?.id).not.toBe(first.attachments?.[0]?.id);
    expect(await replyOf(tab, conversationId)).toBe('Files: notes.md (text/markdown, 17 bytes)');

    await tab.send({ type: 'message.deleteVersion', conversationId, messageId: edited.id });
    expect(await tab.host.store.readAttachment(edited.attachments![0]!.id)).toBeUndefined();
    expect(await tab.host.store.readAttachment(first.attachments![0]!.id)).toBeDefined();
    await tab.send({ type: 'conversation.delete', conversationId });
    expect(await tab.host.store.readAttachment(first.attachments![0]!.id)).toBeUndefined();
  });

  it('gives a stored file to the page to show, and says when it is gone', async () => {
    const tab = await newTab();
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    const message = (await tab.send({ type: 'message.send', conversationId, text: 'x', attachments: [image()] })).message!;
    const read = await tab.send({ type: 'attachment.read', attachmentId: message.attachments![0]!.id });
    expect(read.blob.size).toBe(PNG.length);
    await expect(tab.send({ type: 'attachment.read', attachmentId: 'nope' })).rejects.toMatchObject({ code: 'not_found', reason: 'attachment_gone' });
  });
});

describe('files in an export', () => {
  async function exported(): Promise<{ file: ConversationExport; conversationId: string; message: Message }> {
    const tab = await newTab();
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    const message = (await tab.send({ type: 'message.send', conversationId, text: 'Keep these', attachments: [image(), textFile()] })).message!;
    await waitForRunState(tab, conversationId, ['idle']);
    // Through JSON, as the file is written and read.
    return { file: JSON.parse(JSON.stringify(await tab.send({ type: 'conversation.export' }))) as ConversationExport, conversationId, message };
  }

  it('carries them as base64 and brings them back into another browser, where the model reads them again', async () => {
    const { file, conversationId, message } = await exported();
    const entry = file.conversations.find((candidate) => candidate.conversation.id === conversationId)!;
    expect(entry.attachments?.map((attachment) => attachment.messageId)).toEqual([message.id, message.id]);
    expect(entry.attachments?.find((attachment) => attachment.id === message.attachments![0]!.id)?.base64).toBe(btoa(String.fromCharCode(...PNG)));

    const other = await newTab();
    expect(await other.send({ type: 'conversation.import', data: file })).toMatchObject({ imported: 1, skipped: 0 });
    const files = await storedFiles(other, message.id);
    expect(new Uint8Array(await files[0]!.blob.arrayBuffer())).toEqual(PNG);
    expect(files[0]!.blob.type).toBe('image/png');
    expect(await files[1]!.blob.text()).toBe('# Notes\nBuy milk.');
    // Imported twice: nothing changes.
    expect(await other.send({ type: 'conversation.import', data: file })).toMatchObject({ imported: 0, skipped: 1 });
  });

  it('refuses a file whose files do not match its messages: missing, another size, an "image" that is HTML, broken base64', async () => {
    const { file, conversationId } = await exported();
    const at = file.conversations.findIndex((candidate) => candidate.conversation.id === conversationId);
    const change = (edit: (entry: ConversationExport['conversations'][number]) => void) => {
      const copy = structuredClone(file);
      edit(copy.conversations[at]!);
      return () => validateImport(copy);
    };
    const mismatch = { reason: 'import_attachment_mismatch', params: { conversation: at + 1 } };
    expect(change((entry) => entry.attachments!.pop())).toThrow(expect.objectContaining(mismatch));
    expect(change((entry) => (entry.messages.find((message) => message.attachments)!.attachments![1]!.size += 3))).toThrow(expect.objectContaining(mismatch));
    expect(change((entry) => (entry.messages.find((message) => message.attachments)!.attachments![0]!.mimeType = 'text/html'))).toThrow(expect.objectContaining(mismatch));
    expect(change((entry) => (entry.attachments![0]!.messageId = 'someone-else'))).toThrow(expect.objectContaining(mismatch));
    expect(change((entry) => (entry.attachments![0]!.base64 = '<script>'))).toThrow(expect.objectContaining({ reason: 'import_not_export' }));
    expect(change(() => undefined)).not.toThrow();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { script, waitForRunState, type TestTab } from './host-harness';
import { LAPTOP, simulatedDevices, testKeys } from './sync-simulation';
import { messageText } from '../../src/core/run/message-text';
import { toBase64 } from '../../src/core/base64';
import { CHUNK_BYTES, chunkId, openChunk, sealAndWrite, sealChunk, splitIntoChunks } from '../../src/worker/sync/content/attachment-chunks';
import type { AttachmentChunkHeader } from '../../src/schema/sync/attachment-chunks';
import { segmentId } from '../../src/worker/sync/documents/message-segments';

// Files travel (README, "Sync between your devices"): their bytes are sealed in chunks by the device that holds them,
// put together and checked on the other, and read from there by the page and by a model step after a take-over.

/** A PNG signature and then bytes that fill three chunks (the last one short), each byte depending on its place. */
function bigImageBytes(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(2 * CHUNK_BYTES + 1000);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7 + (index >> 9)) & 0xff;
  bytes.set([137, 80, 78, 71, 13, 10, 26, 10]);
  return bytes;
}

/** Known text, so the server's documents can be searched for it (and for its base64). */
const NOTES_TEXT = 'The secret zeppelin leaves from hangar nine at dawn.';
const ECHO = { text: 'Files: {{attachments}}' };

async function sentWithFiles(laptop: TestTab, image: Uint8Array<ArrayBuffer>) {
  await laptop.send({ type: 'settings.update', script: script([ECHO, ECHO]) });
  const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
  const { message } = await laptop.send({
    type: 'message.send',
    conversationId,
    text: 'What is in these?',
    attachments: [
      { name: 'photo.png', type: 'image/png', blob: new Blob([image], { type: 'image/png' }) },
      { name: 'notes.md', type: 'text/markdown', blob: new Blob([NOTES_TEXT]) },
    ],
  });
  // Its files are sealed and sent while it runs: on a loaded machine the run takes longer than the default wait.
  await waitForRunState(laptop, conversationId, ['idle'], 30_000);
  const [photo, notes] = message!.attachments!;
  return { conversationId, message: message!, photo: photo!, notes: notes! };
}

async function bytesOn(tab: TestTab, attachmentId: string): Promise<Uint8Array | undefined> {
  const stored = await tab.host.store.readAttachment(attachmentId);
  return stored ? new Uint8Array(await stored.blob.arrayBuffer()) : undefined;
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { reason?: string }) => error.reason);

describe('chunks of a file', () => {
  it('cuts a file into chunks of at most CHUNK_BYTES, in order, and an empty file into one empty chunk', () => {
    const bytes = bigImageBytes();
    const parts = splitIntoChunks(bytes);
    expect(parts.map((part) => part.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, 1000]);
    expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
    expect(splitIntoChunks(new Uint8Array(0)).map((part) => part.length)).toEqual([0]);
  });

  it('seals a chunk to its id: it opens there with its header and bytes, and not under another id', async () => {
    const keys = await testKeys();
    const header: AttachmentChunkHeader = { v: 1, attachmentId: 'a1', conversationId: 'c1', messageId: 'm1', mimeType: 'image/png', size: 3, count: 1, index: 0, sha256: '0'.repeat(64) };
    const id = await chunkId(keys, 'a1', 0);
    const sealed = await sealChunk(keys, id, header, new Uint8Array([1, 2, 3]));
    expect(sealed.e).toBe(2);
    const opened = await openChunk(keys, sealed);
    expect(opened?.header).toEqual(header);
    expect([...opened!.bytes]).toEqual([1, 2, 3]);
    expect(await openChunk(keys, { ...sealed, _id: await chunkId(keys, 'a1', 1) })).toBeUndefined();
  });
});

describe('sealing and writing a file’s chunks', () => {
  /** A write that ends when the test says so, and the chunks each write was given. */
  function heldWrites() {
    const writes: Array<{ items: number[]; end: (error?: Error) => void }> = [];
    const write = (items: number[]) => new Promise<void>((resolve, reject) => writes.push({ items, end: (error) => (error ? reject(error) : resolve()) }));
    return { writes, write };
  }
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('seals before `ready` but writes nothing until it, then writes in order with at most `atOnce` writes under way', async () => {
    const { writes, write } = heldWrites();
    const sealed: number[] = [];
    let go!: () => void;
    const ready = new Promise<void>((resolve) => (go = resolve));
    const done = sealAndWrite(7, { perWrite: 2, atOnce: 2 }, async (index) => (sealed.push(index), index), write, ready);
    await settled();
    expect(sealed).toEqual([0, 1]);
    expect(writes).toHaveLength(0);
    go();
    await settled();
    expect(writes.map((entry) => entry.items)).toEqual([[0, 1], [2, 3]]);
    writes[0]!.end();
    await settled();
    expect(writes.map((entry) => entry.items)).toEqual([[0, 1], [2, 3], [4, 5]]);
    for (const entry of writes.slice(1)) entry.end();
    await settled();
    expect(writes.map((entry) => entry.items)).toEqual([[0, 1], [2, 3], [4, 5], [6]]);
    writes[3]!.end();
    await expect(done).resolves.toBeUndefined();
  });

  it('fails with a write’s failure, and writes nothing when `ready` fails', async () => {
    const { writes, write } = heldWrites();
    const failing = sealAndWrite(4, { perWrite: 2, atOnce: 2 }, async (index) => index, write, Promise.resolve());
    await settled();
    writes[0]!.end(new Error('disk full'));
    writes[1]!.end();
    await expect(failing).rejects.toThrow('disk full');

    const dropped = heldWrites();
    await expect(sealAndWrite(4, { perWrite: 2, atOnce: 2 }, async (index) => index, dropped.write, Promise.reject(new Error('not pushed')))).rejects.toThrow('not pushed');
    expect(dropped.writes).toHaveLength(0);
  });
});

describe('files sent with a message, synced', { timeout: 120_000 }, () => {
  it('reach the other device in chunks, are stored there byte for byte, and the server holds none of their plaintext', async () => {
    const { server, replicator, laptop, phone } = await simulatedDevices(11);
    const image = bigImageBytes();
    const { photo, notes } = await sentWithFiles(laptop, image);
    await replicator.settle(async () => (await bytesOn(phone, photo.id)) !== undefined && (await bytesOn(phone, notes.id)) !== undefined);

    expect(Buffer.from((await bytesOn(phone, photo.id))!).equals(Buffer.from(image))).toBe(true);
    expect(new TextDecoder().decode(await bytesOn(phone, notes.id))).toBe(NOTES_TEXT);
    const read = await phone.send({ type: 'attachment.read', attachmentId: photo.id });
    expect(read.blob.size).toBe(image.length);
    // Three chunks of the image (none of them a whole file), one of the notes.
    const keys = await testKeys();
    const chunkIds = await Promise.all([0, 1, 2].map((index) => chunkId(keys, photo.id, index)));
    for (const id of chunkIds) expect(server.documents.get(id)?.document.e).toBe(2);
    const everything = server.allPlaintext();
    for (const secret of [NOTES_TEXT, 'zeppelin', toBase64(new TextEncoder().encode(NOTES_TEXT)).slice(0, 40), 'photo.png', photo.id]) expect(everything).not.toContain(secret);
  });

  it('a message’s segment is written before its files’ chunks, so the other device shows the message before the bytes fill its pull', async () => {
    const { laptopMirror, replicator, laptop, phone } = await simulatedDevices(12);
    const { conversationId, photo } = await sentWithFiles(laptop, bigImageBytes());
    const keys = await testKeys();
    const firstWrite = (id: string) => laptopMirror.local.log.findIndex((entry) => entry.id === id);
    const segment = firstWrite(await segmentId(keys, { conversationId, index: 0 }));
    const chunkIds = await Promise.all([0, 1, 2].map((index) => chunkId(keys, photo.id, index)));
    // The run can end before the last chunk is written (on a loaded machine).
    await vi.waitFor(() => expect(chunkIds.map(firstWrite)).not.toContain(-1), { timeout: 30_000 });
    const chunks = chunkIds.map(firstWrite);
    expect(segment).toBeGreaterThanOrEqual(0);
    for (const chunk of chunks) expect(chunk).toBeGreaterThan(segment);
    // And the file still arrives whole.
    await replicator.settle(async () => (await bytesOn(phone, photo.id)) !== undefined);
  });

  it('a chunk not arrived yet is said as "still syncing", never as a file that is gone; it is read once it arrives', async () => {
    const { replicator, laptop, phone, phoneMirror } = await simulatedDevices(12);
    const { message, photo } = await sentWithFiles(laptop, bigImageBytes());
    const missing = await chunkId(await testKeys(), photo.id, 1);
    replicator.holdBack = { mirror: phoneMirror, ids: new Set([missing]) };
    await replicator.settle(async () => (await phone.host.store.getMessage(message.id)) !== undefined);

    expect(await bytesOn(phone, photo.id)).toBeUndefined();
    expect(await refusalOf(phone.send({ type: 'attachment.read', attachmentId: photo.id }))).toBe('attachment_syncing');

    replicator.holdBack = undefined;
    await replicator.settle(async () => (await bytesOn(phone, photo.id)) !== undefined);
    expect((await phone.send({ type: 'attachment.read', attachmentId: photo.id })).blob.size).toBe(photo.size);
    // The page is told, so a message showing "not here yet" reads it again.
    expect(phone.events).toContainEqual(expect.objectContaining({ type: 'attachment-arrived', attachmentId: photo.id }));
  });

  it('a file whose chunks came while its device was closed is put together from the mirror when first needed', async () => {
    const { replicator, laptop, phone, phoneMirror } = await simulatedDevices(13);
    const { message, photo } = await sentWithFiles(laptop, bigImageBytes());
    const last = await chunkId(await testKeys(), photo.id, 2);
    replicator.holdBack = { mirror: phoneMirror, ids: new Set([last]) };
    await replicator.settle(async () => (await phone.host.store.getMessage(message.id)) !== undefined);
    // The phone's engine stops (its tab closed) with two chunks of three; the third reaches its mirror meanwhile.
    await phone.host.sync.detach();
    replicator.holdBack = undefined;
    await replicator.settle(async () => phoneMirror.local.documents.has(last));
    await phone.host.sync.attach(phoneMirror, await testKeys(), { id: 'device-phone', name: 'Phone' });
    expect(await bytesOn(phone, photo.id)).toBeUndefined();

    expect((await phone.send({ type: 'attachment.read', attachmentId: photo.id })).blob.size).toBe(photo.size);
    expect(Buffer.from((await bytesOn(phone, photo.id))!).equals(Buffer.from((await bytesOn(laptop, photo.id))!))).toBe(true);
  });

  it('after "Continue on this device", the model step on the phone is given the files the laptop sent', async () => {
    const { replicator, laptop, phone } = await simulatedDevices(14);
    const { conversationId, message, photo, notes } = await sentWithFiles(laptop, bigImageBytes());
    // The files and the reply (the files' chunks go out as soon as the message is stored, so they may come first).
    const everything = async () => (await phone.host.store.listMessages(conversationId)).length === (await laptop.host.store.listMessages(conversationId)).length;
    await replicator.settle(async () => (await bytesOn(phone, notes.id)) !== undefined && (await bytesOn(phone, photo.id)) !== undefined && (await everything()));
    expect(phone.host.sync.runnerElsewhere(conversationId)).toEqual(LAPTOP);

    await phone.send({ type: 'settings.update', script: script([ECHO, ECHO]) });
    await phone.send({ type: 'conversation.takeOver', conversationId });
    const reply = (await phone.host.store.listMessages(conversationId)).at(-1)!;
    await phone.send({ type: 'message.regenerate', conversationId, messageId: reply.id });
    await waitForRunState(phone, conversationId, ['idle']);
    const latest = (await phone.host.store.listMessages(conversationId)).at(-1)!;
    expect(latest.id).not.toBe(reply.id);
    expect(messageText(latest)).toBe(`Files: photo.png (image/png, ${photo.size} bytes), notes.md (text/markdown, ${NOTES_TEXT.length} bytes)`);
    expect(message.attachments).toHaveLength(2);
  });

  /** A conversation with a photo and notes sent on the laptop, on the phone with the photo's middle chunk held back. */
  async function photoOnItsWay(seed: number) {
    const devices = await simulatedDevices(seed);
    const { replicator, laptop, phone, phoneMirror } = devices;
    const sent = await sentWithFiles(laptop, bigImageBytes());
    replicator.holdBack = { mirror: phoneMirror, ids: new Set([await chunkId(await testKeys(), sent.photo.id, 1)]) };
    const everything = async () => (await phone.host.store.listMessages(sent.conversationId)).length === (await laptop.host.store.listMessages(sent.conversationId)).length;
    await replicator.settle(async () => (await bytesOn(phone, sent.notes.id)) !== undefined && (await everything()));
    expect(await bytesOn(phone, sent.photo.id)).toBeUndefined();
    // The phone takes over and asks again; its step asks sync for the photo with the run's signal, and waits.
    const asked = vi.spyOn(phone.host.sync, 'fetchAttachment');
    await phone.send({ type: 'settings.update', script: script([ECHO, ECHO]) });
    await phone.send({ type: 'conversation.takeOver', conversationId: sent.conversationId });
    const reply = (await phone.host.store.listMessages(sent.conversationId)).at(-1)!;
    await phone.send({ type: 'message.regenerate', conversationId: sent.conversationId, messageId: reply.id });
    await vi.waitFor(() => expect(asked).toHaveBeenCalledWith(sent.photo.id, expect.any(AbortSignal)), { timeout: 10_000 });
    const latest = async () => (await phone.host.store.listMessages(sent.conversationId)).at(-1)!;
    return { ...devices, ...sent, reply, latest };
  }

  it('after "Continue on this device", a model step waits for a file still on its way and is given it once it arrives', async () => {
    const { replicator, phone, conversationId, photo, reply, latest } = await photoOnItsWay(15);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await phone.host.store.getConversation(conversationId))?.runState).toBe('running');
    expect(messageText(await latest())).not.toContain('Files:');

    // The run says why it waits (after a moment: a file whose chunks are all here is put together sooner).
    const all = () => phone.events.flatMap((event) => (event.type === 'run-notice' && event.conversationId === conversationId ? [event.notice?.kind ?? null] : []));
    const notices = () => all().slice(all().indexOf('waiting_file'));
    await vi.waitFor(() => expect(notices()).toEqual(['waiting_file']), { timeout: 10_000 });

    replicator.holdBack = undefined;
    await replicator.settle(async () => (await bytesOn(phone, photo.id)) !== undefined);
    // Well inside the 15 s a wait gives up after: the step went on because the file arrived.
    await waitForRunState(phone, conversationId, ['idle'], 10_000);
    expect(notices().slice(0, 2)).toEqual(['waiting_file', null]);
    const answered = await latest();
    expect(answered.id).not.toBe(reply.id);
    expect(messageText(answered)).toBe(`Files: photo.png (image/png, ${photo.size} bytes), notes.md (text/markdown, ${NOTES_TEXT.length} bytes)`);
    expect(answered.notices).toBeUndefined();
  });

  it('a file that does not come is given to the model as not here yet, never as gone, and the reply says it was made without it', async () => {
    const { phone, conversationId, latest } = await photoOnItsWay(16);
    // The wait ends when the file stops coming (FileArrivals, timed in its own test) or, here, when sync stops.
    await phone.host.sync.detach();
    await waitForRunState(phone, conversationId, ['idle'], 20_000);
    const answered = await latest();
    expect(messageText(answered)).toBe(`Files: photo.png (not here yet), notes.md (text/markdown, ${NOTES_TEXT.length} bytes)`);
    expect(answered.notices).toEqual([{ key: 'files_not_here' }]);
  });

  it('an edit of a message whose file has not reached this device is refused in words, and goes through with the file once it has', async () => {
    const { replicator, laptop, phone, phoneMirror } = await simulatedDevices(17);
    const { conversationId, message, photo, notes } = await sentWithFiles(laptop, bigImageBytes());
    replicator.holdBack = { mirror: phoneMirror, ids: new Set([await chunkId(await testKeys(), photo.id, 1)]) };
    const everything = async () => (await phone.host.store.listMessages(conversationId)).length === (await laptop.host.store.listMessages(conversationId)).length;
    await replicator.settle(async () => (await bytesOn(phone, notes.id)) !== undefined && (await everything()));
    await phone.send({ type: 'settings.update', script: script([ECHO, ECHO, ECHO]) });
    await phone.send({ type: 'conversation.takeOver', conversationId });

    // The new version would hold a copy of a file that is not here to copy, and would never come.
    expect(await refusalOf(phone.send({ type: 'message.edit', conversationId, messageId: message.id, text: 'And these?' }))).toBe('attachment_syncing');
    replicator.holdBack = undefined;
    await replicator.settle(async () => (await bytesOn(phone, photo.id)) !== undefined);
    const { message: edited } = await phone.send({ type: 'message.edit', conversationId, messageId: message.id, text: 'And these?' });
    await waitForRunState(phone, conversationId, ['idle']);
    const [photoCopy] = edited!.attachments!;
    expect(photoCopy!.id).not.toBe(photo.id);
    expect((await bytesOn(phone, photoCopy!.id))?.length).toBe(photo.size);
    expect(messageText((await phone.host.store.listMessages(conversationId)).at(-1)!)).toContain(`photo.png (image/png, ${photo.size} bytes)`);
  });
});

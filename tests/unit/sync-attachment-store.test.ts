import { describe, expect, it } from 'vitest';
import { failWrites, script, waitForRunState, type TestTab } from './host-harness';
import { simulatedDevices, testKeys } from './sync-simulation';
import { CHUNK_BYTES, chunkId } from '../../src/worker/sync/content/attachment-chunks';

// docs/architecture.md, "Sync": a file received in chunks is put together in memory, checked, and stored in one
// IndexedDB write — its record in `attachments` is the file's bytes and what says it is here, both or neither. What the
// mirror notes about it (`attachments-held`) comes after, and a failure there never hides bytes that are stored.

/** Three chunks' worth of an image (the last one short), each byte depending on its place. */
function imageBytes(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(2 * CHUNK_BYTES + 1000);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 13 + (index >> 11)) & 0xff;
  bytes.set([137, 80, 78, 71, 13, 10, 26, 10]);
  return bytes;
}

async function sentWithImage(laptop: TestTab, image: Uint8Array<ArrayBuffer>) {
  await laptop.send({ type: 'settings.update', script: script([{ text: 'A picture.' }]) });
  const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
  const { message } = await laptop.send({ type: 'message.send', conversationId, text: 'Look', attachments: [{ name: 'photo.png', type: 'image/png', blob: new Blob([image], { type: 'image/png' }) }] });
  await waitForRunState(laptop, conversationId, ['idle']);
  return { conversationId, message: message!, photo: message!.attachments![0]! };
}

async function bytesOn(tab: TestTab, attachmentId: string): Promise<Uint8Array | undefined> {
  const stored = await tab.host.store.readAttachment(attachmentId);
  return stored ? new Uint8Array(await stored.blob.arrayBuffer()) : undefined;
}

const isFileRecord = (value: unknown) => typeof value === 'object' && value !== null && 'blob' in value && 'messageId' in value;

/** A laptop sends an image; the phone receives its chunks and the message while every write of a file's record fails there. */
async function receivedWhileStoresFail(seed: number) {
  const devices = await simulatedDevices(seed);
  const { replicator, laptop, phone, phoneMirror } = devices;
  const image = imageBytes();
  const { conversationId, photo } = await sentWithImage(laptop, image);
  const keys = await testKeys();
  const ids = await Promise.all([0, 1, 2].map((index) => chunkId(keys, photo.id, index)));
  const restore = failWrites(isFileRecord); // a full disk, or a tab closing mid-write
  try {
    await replicator.settle(async () => ids.every((id) => phoneMirror.local.documents.has(id)) && (await phone.host.store.allMessages(conversationId)).length === 2);
  } finally {
    restore();
  }
  return { ...devices, image, photo };
}

describe('storing a file received in chunks (sync)', { timeout: 120_000 }, () => {
  it('a store that fails leaves neither bytes nor a mark, the rest still arrives, and the file is put together again on the next read', async () => {
    const { phone, phoneMirror, image, photo } = await receivedWhileStoresFail(201);
    expect(await bytesOn(phone, photo.id)).toBeUndefined();
    // No bytes go with the word of it: a page showing the file reads it again, and is told why.
    expect(phone.events.filter((event) => event.type === 'attachment-arrived')).toEqual([{ type: 'attachment-arrived', attachmentId: photo.id }]);
    expect(await phoneMirror.getLocal('attachments-held')).toBeUndefined();

    const read = await phone.send({ type: 'attachment.read', attachmentId: photo.id });
    expect(Buffer.from(await read.blob.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
    expect(await phoneMirror.getLocal('attachments-held')).toEqual([photo.id]);
  });

  it('a read while there is still no space says the storage is full, not that the file is still syncing', async () => {
    const { phone, photo } = await receivedWhileStoresFail(203);
    const restore = failWrites(isFileRecord);
    try {
      await expect(phone.send({ type: 'attachment.read', attachmentId: photo.id })).rejects.toMatchObject({ code: 'storage_full' });
    } finally {
      restore();
    }
    expect(await bytesOn(phone, photo.id)).toBeUndefined();
  });

  it('bytes stored whole are read as here even when noting that the mirror holds their chunks fails', async () => {
    const { phone, phoneMirror, image, photo } = await receivedWhileStoresFail(202);
    const setLocal = phoneMirror.setLocal.bind(phoneMirror);
    phoneMirror.setLocal = async (key, value) => (key === 'attachments-held' ? Promise.reject(new Error('the mirror could not write')) : setLocal(key, value));

    const read = await phone.send({ type: 'attachment.read', attachmentId: photo.id });
    expect(Buffer.from(await read.blob.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
    expect(Buffer.from((await bytesOn(phone, photo.id))!).equals(Buffer.from(image))).toBe(true);
  });
});

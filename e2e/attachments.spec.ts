import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { assistantMessages, attach, conversationLink, messageBox, newConversation, send, useScript, userMessages } from './fixtures';
import { chatRequests, expect, expectChatRequestCount, requestMessages, startWithProfile, test } from './provider-helpers';

// Files sent with a message: chosen with "Attach files", dropped or pasted; images and text files reach the
// model as the right parts, read back from IndexedDB for every step; they travel through export and import; anything
// refused is said in words and loses nothing.

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PIXEL = { name: 'pixel.png', mimeType: 'image/png', buffer: Buffer.from(PNG_BASE64, 'base64') };
const NOTES = { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nBuy **milk**.') };

const pending = (page: Page) => page.getByRole('list', { name: 'Attachments', exact: true });
const sentFiles = (page: Page) => userMessages(page).last().getByRole('list', { name: 'Files sent with this message', exact: true });

/** The user message of a Chat Completions request that holds parts (the one with files). */
function userParts(messages: ReturnType<typeof requestMessages>): unknown {
  return messages.find((message) => message.role === 'user' && Array.isArray(message.content))?.content;
}

const EXPECTED_PARTS = [
  { type: 'text', text: 'What is in these?' },
  { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
  { type: 'text', text: '<file name="notes.md" type="text/markdown">\n# Notes\n\nBuy **milk**.\n</file>' },
];

test('an image and a text file reach an OpenAI-compatible server as image and text parts, and again after export and import', async ({ page, provider, browser }) => {
  // Two browsers, a download and an import: more than one flow's time on a shared machine.
  test.slow();
  const { conversationId } = await startWithProfile(page, provider);
  provider.enqueue({ text: 'A pixel and a shopping list.' });
  await attach(page, PIXEL, NOTES);
  await expect(pending(page).getByRole('listitem')).toHaveText([new RegExp(`pixel\\.png, ${PIXEL.buffer.length} bytes`), 'notes.md, 22 bytes']);
  await send(page, 'What is in these?');
  await expect(pending(page)).toHaveCount(0);
  await expect(assistantMessages(page).last()).toContainText('A pixel and a shopping list.');
  await expectChatRequestCount(provider, 1);
  expect(userParts(requestMessages(chatRequests(provider)[0]))).toEqual(EXPECTED_PARTS);

  // The sent message shows its files, the image as a thumbnail read back from storage.
  await expect(sentFiles(page).getByRole('listitem')).toHaveText([/pixel\.png/, /notes\.md/]);
  const thumbnail = sentFiles(page).locator('img');
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export conversations' }).click();
  const file = (await (await download).path())!;
  const exported = JSON.parse(await readFile(file, 'utf8')) as { conversations: Array<{ conversation: { id: string }; attachments?: Array<{ base64: string }> }> };
  const entry = exported.conversations.find((candidate) => candidate.conversation.id === conversationId);
  expect(entry?.attachments?.map((attachment) => attachment.base64)).toContain(PNG_BASE64);

  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    await elsewhere.goto('/');
    await elsewhere.getByRole('button', { name: 'Settings', exact: true }).click();
    await elsewhere.getByLabel('Import conversations').setInputFiles(file);
    // The profile comes too (without its key: this server needs none), so the conversation talks to the same server.
    await elsewhere.getByRole('group', { name: 'Settings in this file' }).getByRole('button', { name: 'Add them too', exact: true }).click();
    await expect(elsewhere.getByRole('status').filter({ hasText: 'Imported 1 conversation.' })).toBeVisible();
    await conversationLink(elsewhere, conversationId).click();
    await expect(sentFiles(elsewhere).getByRole('listitem')).toHaveText([new RegExp(`pixel\\.png, ${PIXEL.buffer.length} bytes`), 'notes.md, 22 bytes']);
    await expect.poll(() => sentFiles(elsewhere).locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);

    // The next step of the imported conversation reads the imported files back and sends them again.
    provider.enqueue({ text: 'Still a pixel.' });
    await send(elsewhere, 'And now?');
    await expect(assistantMessages(elsewhere).last()).toContainText('Still a pixel.');
    await expectChatRequestCount(provider, 2);
    expect(userParts(requestMessages(chatRequests(provider)[1]))).toEqual(EXPECTED_PARTS);
  } finally {
    await other.close();
  }
});

test('dropped and pasted files reach the scripted model, which says what it received', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Received: {{attachments}}' }]);
  await newConversation(page);
  // A drop onto the conversation, and a paste into the message box, with the browser's own DataTransfer.
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['a,b\n1,2'], 'table.csv', { type: 'text/csv' }));
    return transfer;
  });
  await page.locator('.chat-view').dispatchEvent('dragenter', { dataTransfer: dropped });
  await expect(page.getByText('Drop files here to attach them')).toBeVisible();
  await page.locator('.chat-view').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByText('Drop files here to attach them')).toHaveCount(0);
  // Dropped beside the conversation, a file is not opened by the browser in place of the app (the drop is cancelled).
  const strayDropCancelled = await page.getByRole('navigation', { name: 'Conversations', exact: true }).evaluate((nav) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'stray.txt', { type: 'text/plain' }));
    const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
    nav.dispatchEvent(drop);
    return drop.defaultPrevented;
  });
  expect(strayDropCancelled).toBe(true);
  await messageBox(page).evaluate((box, base64) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))], 'pasted.png', { type: 'image/png' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, PNG_BASE64);
  await expect(pending(page).getByRole('listitem')).toHaveText([/table\.csv/, /pasted\.png/]);
  await send(page, 'Two files');
  await expect(assistantMessages(page).last()).toHaveText(`Received: table.csv (text/csv, 7 bytes), pasted.png (image/png, ${PIXEL.buffer.length} bytes)`);
});

test('a file over the size limit, a file of no accepted kind and a binary file named .txt are refused in words as they are offered; the typed text and the other file stay and are sent', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Received: {{attachments}}' }]);
  await newConversation(page);
  await messageBox(page).fill('Here is my data');
  // Chromium on Linux gives .ts the Qt Linguist type: the model is told TypeScript, from the name.
  await attach(page, NOTES, { name: 'helper.ts', mimeType: 'text/vnd.trolltech.linguist', buffer: Buffer.from('export const a = 1;\n') });
  await attach(
    page,
    { name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1.5 * 1024 * 1024, 'x') },
    { name: 'archive.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004') },
    { name: 'binary.txt', mimeType: 'text/plain', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]) },
  );
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText('“huge.txt” was not attached: it is 1.5 MB, and the limit for this kind of file is 1 MB.');
  // A binary file named as text is refused as it is offered, by its bytes, not at Send: with the zip, for one reason,
  // in one sentence.
  await expect(refusal).toContainText('“archive.zip” and “binary.txt” were not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files (code, Markdown, CSV, JSON, plain text), not these kinds of file.');
  await expect(pending(page).getByRole('listitem')).toHaveText([/notes\.md/, /helper\.ts/]);
  await expect(messageBox(page)).toHaveValue('Here is my data');

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(assistantMessages(page).last()).toHaveText('Received: notes.md (text/markdown, 22 bytes), helper.ts (text/x-typescript, 20 bytes)');
  await expect(userMessages(page).last()).toContainText('Here is my data');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a model set not to accept images is said so when an image is attached, and nothing reaches its server', async ({ page, provider }) => {
  await startWithProfile(page, provider);
  // Settings: the profile's "Accepts images" turned off.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Accepts images', exact: true }).uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await page.goBack();
  await expect(messageBox(page)).toBeVisible();
  await attach(page, PIXEL, NOTES);
  await expect(page.getByRole('alert')).toHaveText('“pixel.png” was not attached: this model does not accept images. Choose a model profile that does, or send text files only.');
  await expect(pending(page).getByRole('listitem')).toHaveText([/notes\.md/]);
  expect(chatRequests(provider)).toHaveLength(0);
});

test('a file name with a right-to-left override shows the control as its code point, in the chip, the refusal, the sent message and what the model got', async ({ page }) => {
  await page.goto('/');
  await useScript(page, [{ text: 'Received: {{attachments}}' }]);
  await newConversation(page);
  // Unshown, "notes\u202Edm.md" reads "notesmd.md" and "report\u202Etxt.pdf" reads "reportfdp.txt".
  await attach(page, { name: 'notes\u202Edm.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes') }, { name: 'report\u202Etxt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
  await expect(page.getByRole('alert')).toContainText('“report⟨U+202E⟩txt.pdf” was not attached');
  await expect(pending(page).getByRole('listitem')).toHaveText([/^notes⟨U\+202E⟩dm\.md/]);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(sentFiles(page).getByRole('listitem')).toHaveText([/^notes⟨U\+202E⟩dm\.md/]);
  await expect(assistantMessages(page).last()).toHaveText('Received: notes⟨U+202E⟩dm.md (text/markdown, 7 bytes)');
  // A conversation begun with files alone is titled by their names, as shown.
  await expect(page.locator('.chat-title')).toHaveText('notes⟨U+202E⟩dm.md');
  // Nothing on the page carries the control itself.
  const carriers = await page.locator('main').evaluate((main) => {
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    const found: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.includes('\u202E')) found.push(`${node.parentElement?.outerHTML.slice(0, 200)}`);
    return found;
  });
  expect(carriers).toEqual([]);
});

test.describe('at 360 px with touch', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('files refused for one reason share one explanation that lists their names', async ({ page }) => {
    await page.goto('/');
    await newConversation(page);
    const refused = ['archive.zip', 'movie.mp4', 'setup.exe'].map((name) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from('PK\u0003\u0004') }));
    await attach(page, ...refused, NOTES);
    const refusal = page.getByRole('alert');
    await expect(refusal).toHaveText(
      '“archive.zip”, “movie.mp4”, and “setup.exe” were not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files (code, Markdown, CSV, JSON, plain text), not these kinds of file.',
    );
    await expect(pending(page).getByRole('listitem')).toHaveText([/notes\.md/]);
    // Two reasons: one sentence each.
    await attach(page, ...refused.slice(0, 2), { name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1.5 * 1024 * 1024, 'x') });
    await expect(refusal.locator('p')).toHaveText([
      '“archive.zip” and “movie.mp4” were not attached: Parley can send images (PNG, JPEG, GIF, WebP) and text files (code, Markdown, CSV, JSON, plain text), not these kinds of file.',
      '“huge.txt” was not attached: it is 1.5 MB, and the limit for this kind of file is 1 MB.',
    ]);
  });

  test('a sent image opens larger in a dialog with its name and Close; Escape closes it', async ({ page }) => {
    await page.goto('/');
    await useScript(page, [{ text: 'Received: {{attachments}}' }]);
    await newConversation(page);
    await attach(page, PIXEL);
    await send(page, 'Look');
    await expect(assistantMessages(page).last()).toContainText('Received: pixel.png');
    const open = sentFiles(page).getByRole('button', { name: 'View pixel.png', exact: true });
    await expect(open).toBeVisible();
    await open.tap();
    const viewer = page.getByRole('dialog', { name: 'pixel.png', exact: true });
    await expect(viewer).toBeVisible();
    const image = viewer.getByRole('img', { name: 'pixel.png', exact: true });
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
    // Larger than the thumbnail, inside the screen.
    const box = await image.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(200);
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    await expect(viewer.getByRole('button', { name: 'Close', exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(open).toBeFocused();
    await open.tap();
    await viewer.getByRole('button', { name: 'Close', exact: true }).tap();
    await expect(viewer).toHaveCount(0);
  });
});

import { writeFile } from 'node:fs/promises';
import { noisePng } from './noise-png.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { KEY_DOC_ID, open, openKeyDocument, type KeyDocument } from '../src/worker/sync/documents/sync-crypto';
import { startCouchProxy } from '../tests/server/couch-proxy';
import { basicAuthorization, startCouchServer, type CouchServer } from '../tests/server/couch-server';
import { startProviderServer } from '../tests/server/provider-server';
import { assistantMessages, attach, conversationLink, messageBox, messageLog, newConversation, send, userMessages, useScript, type ScriptStep } from './fixtures';
import { addMcpServer, expect, mcpServerItem, openMcpSettings, permissionSelect, test as mcpTest, type McpServers } from './mcp-servers';
import { addProfile, chatRequests, expectChatRequestCount, profileFor, profileSelect, requestMessages } from './provider-helpers';
import { ASKING_TEXT, COLOR, questionForm, questionGroup, questionScript, questionSummary, RECEIVED_STEP, submitButton } from './question-helpers';

// End to end: two browser contexts are two devices (separate IndexedDB, separate workers) syncing through a
// CouchDB-protocol server (pouchdb-server in memory, or the real CouchDB at COUCHDB_URL) with a fresh database per test.
// Every request the workers make to it is cross-origin with an Authorization header, so each test also proves CORS.

const PASSPHRASE = 'correct horse battery staple';
/** Replication is live but retries with backoff: what crosses devices gets more than the default 10 s. */
const REPLICATION = { timeout: 45_000 };

interface Device {
  name: string;
  context: BrowserContext;
  page: Page;
}

const test = mcpTest.extend<{ database: string; device: (name: string) => Promise<Device> }, { couch: CouchServer }>({
  couch: [
    // The empty pattern is how Playwright is told this fixture needs no other fixture.
    async ({}, use) => {
      const server = await startCouchServer();
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  database: async ({ couch }, use) => use(await couch.createDatabase()),
  // A device: its own browser context (its own storage), the app open, its name set. Closed after the test.
  device: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (name) => {
      const opened = await openDevice(browser, name);
      contexts.push(opened.context);
      return opened;
    });
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
  },
});

// Two fresh browser contexts per test on a two-core machine: opening each costs seconds before any sync happens.
test.describe.configure({ timeout: 240_000 });

async function openDevice(browser: Browser, name: string): Promise<Device> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await openSettings(page);
  const nameBox = syncRegion(page).getByRole('textbox', { name: "This device's name", exact: true });
  // The worker's first name for the device ("Linux computer") arrives after the box: filled before it, the box took it
  // between fill's select-all and its typing, and a loaded run named the phone "Linux computerPhone".
  await expect(nameBox).not.toHaveValue('');
  await nameBox.fill(name);
  await syncRegion(page).getByRole('button', { name: 'Use this name', exact: true }).click();
  await expect(syncRegion(page).getByText(`This device is called “${name}”.`, { exact: true })).toBeVisible();
  await goHome(page);
  return { name, context, page };
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  await expect(syncRegion(page)).toBeVisible();
}

async function goHome(page: Page): Promise<void> {
  await page.evaluate(() => {
    location.hash = '#/';
  });
  await expect(page).not.toHaveURL(/#\/settings$/);
}

function syncRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Sync', exact: true });
}

function syncStatus(page: Page): Locator {
  return syncRegion(page).getByRole('status');
}

/** Fills Settings → Sync and presses "Turn on sync"; stays in Settings (the caller waits for the outcome it expects). */
async function fillSync(page: Page, access: { url: string; username: string; password: string; passphrase: string }): Promise<void> {
  await openSettings(page);
  const region = syncRegion(page);
  await region.getByRole('textbox', { name: 'Sync server URL', exact: true }).fill(access.url);
  await region.getByRole('textbox', { name: 'Username', exact: true }).fill(access.username);
  // Password fields have no textbox role.
  await region.getByLabel('Password', { exact: true }).fill(access.password);
  await region.getByLabel('Passphrase', { exact: true }).fill(access.passphrase);
  await region.getByRole('button', { name: 'Turn on sync', exact: true }).click();
}

/** Turns sync on with the test's database and waits until the status says it has caught up; back to the start page. */
async function turnOnSync(device: Device, couch: CouchServer, database: string): Promise<void> {
  await fillSync(device.page, { url: database, username: couch.username, password: couch.password, passphrase: PASSPHRASE });
  await expect(syncRegion(device.page).getByRole('button', { name: 'Turn off sync', exact: true })).toBeVisible(REPLICATION);
  await expect(syncStatus(device.page)).toHaveText(/^Synced/, REPLICATION);
  await goHome(device.page);
}

/** A laptop and a phone, in that order, both synced with the test's database. */
async function syncedLaptopAndPhone(couch: CouchServer, database: string, device: (name: string) => Promise<Device>): Promise<{ laptop: Device; phone: Device }> {
  const laptop = await device('Laptop');
  const phone = await device('Phone');
  await turnOnSync(laptop, couch, database);
  await turnOnSync(phone, couch, database);
  return { laptop, phone };
}

/** A new conversation on `page` whose model (scripted with `[{ text: 'First reply.' }]`) has replied to `text`; its id. */
async function conversationWithReply(page: Page, text: string): Promise<string> {
  const conversationId = await newConversation(page);
  await send(page, text);
  await expect(messageLog(page)).toContainText('First reply.');
  return conversationId;
}

/** The question script most tests use: one single-choice question, then a reply that shows what the model received. */
const ONE_QUESTION = questionScript([COLOR], [RECEIVED_STEP, { text: 'Third call: {{lastUserMessage}}' }]);

/** `text` matched literally inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What the model is told when Color was answered with `color` (the question tool's words, core/requests/question-outcomes.ts). */
function received(color: 'Red' | 'Blue'): string {
  return `Received: User has answered your questions: "${COLOR.question}"="${color}". You can now continue with the user's answers in mind.`;
}

/** The laptop's agent asks the Color question in a new conversation; resolves with the conversation's id. */
async function askOn(device: Device, prompt = 'Plan my project'): Promise<string> {
  const conversationId = await newConversation(device.page);
  await send(device.page, prompt);
  await expect(questionForm(device.page)).toBeVisible();
  return conversationId;
}

/** Opens on `device` a conversation another device made, once it has arrived, and waits for its question form. */
async function openSynced(device: Device, conversationId: string): Promise<void> {
  await expect(conversationLink(device.page, conversationId)).toBeVisible(REPLICATION);
  await conversationLink(device.page, conversationId).click();
  await expect(questionForm(device.page)).toBeVisible(REPLICATION);
}

async function answerColor(page: Page, color: 'Red' | 'Blue'): Promise<void> {
  await questionGroup(page, COLOR).getByRole('radio', { name: color, exact: true }).click();
  await submitButton(page).click();
}

test('a question asked on the laptop is answered on the phone: the laptop goes on with the phone’s answer and says where it was given', async ({ couch, database, device }) => {
  const laptop = await device('Laptop');
  await turnOnSync(laptop, couch, database);
  await useScript(laptop.page, ONE_QUESTION);
  const conversationId = await askOn(laptop);

  const phone = await device('Phone');
  await turnOnSync(phone, couch, database);
  // The phone lists it among what waits for the user, and opens it from there.
  const inbox = phone.page.getByRole('region', { name: 'Waiting for you (1)', exact: true });
  await expect(inbox).toBeVisible(REPLICATION);
  await inbox.getByRole('button', { name: new RegExp(`^${COLOR.question.replace(/[?]/g, '\\?')}`) }).click();
  await expect(phone.page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
  await expect(phone.page.getByRole('main').getByText('Runs on Laptop', { exact: true })).toBeVisible();
  // Nothing changes on the phone by itself: the answer goes to the laptop, which decides, and the phone says so until
  // the laptop's record comes back. That can be quick: the note is watched for from before the answer, not read once.
  await phone.page.evaluate(() => {
    const seen = window as Window & { sentNoteSeen?: boolean };
    const look = () => {
      if ([...document.querySelectorAll('[role="status"]')].some((status) => status.textContent?.includes('Sent to Laptop.'))) seen.sentNoteSeen = true;
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await answerColor(phone.page, 'Blue');
  await expect.poll(() => phone.page.evaluate(() => (window as Window & { sentNoteSeen?: boolean }).sentNoteSeen === true)).toBe(true);

  // The laptop's run resumed with the phone's answer, and its record names the phone.
  await expect(messageLog(laptop.page)).toContainText(received('Blue'), REPLICATION);
  await expect(questionSummary(laptop.page)).toContainText('Answered on Phone');
  // The outcome came back to the phone: the same record and the same reply.
  await expect(questionSummary(phone.page)).toBeVisible(REPLICATION);
  await expect(messageLog(phone.page)).toContainText(received('Blue'), REPLICATION);
  await expect(inbox).toHaveCount(0);
});

test('both devices answer at once, three times: one outcome on both, the model reads it once, the loser is told', async ({ couch, database, device }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, ONE_QUESTION);
  for (let trial = 0; trial < 3; trial += 1) {
    await goHome(laptop.page);
    const conversationId = await askOn(laptop, `Trial ${trial}`);
    await openSynced(phone, conversationId);
    await questionGroup(laptop.page, COLOR).getByRole('radio', { name: 'Red', exact: true }).click();
    await questionGroup(phone.page, COLOR).getByRole('radio', { name: 'Blue', exact: true }).click();
    // Both submit together: the laptop's click is a local compare-and-set, the phone's a proposal racing it. The two
    // Submit buttons are found first, then clicked in the same instant: Playwright's click waits for each to be stable
    // first, and on a loaded machine the laptop's answer reached the phone meanwhile and took its form away for good,
    // leaving the phone's click waiting for a button that would not come back. (A device that did not get to submit
    // is told the same as a loser: what it had filled in was not used.)
    const buttons = await Promise.all([laptop.page, phone.page].map((page) => submitButton(page).elementHandle()));
    await Promise.all(buttons.map((button) => button!.evaluate((element) => (element as HTMLButtonElement).click())));

    // Whichever won, the laptop's model was told exactly that, and both devices show that same outcome.
    // The reply streams: wait for one whole sentence, either one, before reading which.
    const eitherReceived = new RegExp(`${escapeRegExp(received('Red'))}|${escapeRegExp(received('Blue'))}`);
    await expect(messageLog(laptop.page)).toContainText(eitherReceived, REPLICATION);
    const winner = (await messageLog(laptop.page).textContent())?.includes(received('Red')) ? 'Red' : 'Blue';
    const loser = winner === 'Red' ? 'Blue' : 'Red';
    await expect(messageLog(phone.page)).toContainText(received(winner), REPLICATION);
    for (const page of [laptop.page, phone.page]) {
      await expect(questionSummary(page)).toContainText(`Color: ${winner}`, REPLICATION);
      await expect(messageLog(page)).not.toContainText(received(loser));
    }
    // The device whose answer lost is told it was decided on the other, and what it had given was not used.
    const [losingPage, winningName] = winner === 'Red' ? [phone.page, 'Laptop'] : [laptop.page, 'Phone'];
    await expect(questionSummary(losingPage)).toContainText(`Answered on ${winningName}`, REPLICATION);
    await expect(questionSummary(losingPage)).toContainText(`Color: ${loser}`);
    await expect(questionSummary(losingPage)).toContainText(/not used/);

    // The losing answer has been refused by now (its device was told), so nothing can still reach the model: the next
    // model call is the conversation's third. A second delivery of either answer would have made it the fourth.
    await send(laptop.page, `after trial ${trial}`);
    await expect(messageLog(laptop.page)).toContainText(`Third call: after trial ${trial}`);
    await expect(assistantMessages(laptop.page)).toHaveCount(3);
    await expect(messageLog(laptop.page).getByText(/^Received: /)).toHaveCount(1);
  }
});

test('an answer given while the phone is offline is delivered when it is back online', async ({ couch, database, device }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, ONE_QUESTION);
  const conversationId = await askOn(laptop);
  await openSynced(phone, conversationId);

  await phone.context.setOffline(true);
  // Idle, with nothing written, the phone says it is offline (it said "Synced" until something was written).
  await openSettings(phone.page);
  await expect(syncStatus(phone.page)).toHaveText('Offline — changes wait on this device', REPLICATION);
  await goHome(phone.page);
  await conversationLink(phone.page, conversationId).click();
  await answerColor(phone.page, 'Blue');
  // Nothing has left the phone: it says the answer waits there, never that it was sent.
  const waiting = phone.page.getByRole('status').filter({ hasText: 'Not sent yet: this device is offline. It waits here and goes to Laptop once this device is online.' });
  await expect(waiting).toBeVisible();
  await expect(phone.page.getByRole('status').filter({ hasText: 'Sent to Laptop.' })).toHaveCount(0);
  await expect(messageLog(laptop.page)).not.toContainText('Received:');
  await expect(questionForm(laptop.page)).toBeVisible();

  await phone.context.setOffline(false);
  await expect(waiting).toHaveCount(0, REPLICATION);
  await expect(messageLog(laptop.page)).toContainText(received('Blue'), REPLICATION);
  await expect(questionSummary(laptop.page)).toContainText('Answered on Phone');
  await expect(messageLog(phone.page)).toContainText(received('Blue'), REPLICATION);
  await openSettings(phone.page);
  await expect(syncStatus(phone.page)).toHaveText(/^Synced/, REPLICATION);
});

interface ToolCallWorld {
  laptop: Device;
  phone: Device;
  conversationId: string;
  /** The call's card while it waits for a decision (or for "Run again"), on either device. */
  approval: (page: Page) => Locator;
  /** The tools/call requests the counting proxy has forwarded to server-everything in this test. */
  toolCalls: () => number;
}

/**
 * Two synced devices; only the laptop is connected to server-everything (through the counting proxy), so the phone never
 * runs a tool, it only decides. The laptop's model calls `tool` with `args`, and the call waits for approval on both.
 */
async function toolCallWaitingOnBoth(
  { couch, database, device, mcp }: { couch: CouchServer; database: string; device: (name: string) => Promise<Device>; mcp: McpServers },
  tool: string,
  args: Record<string, unknown>,
): Promise<ToolCallWorld> {
  mcp.counted.calls.length = 0;
  const toolCalls = () => mcp.counted.calls.filter((call) => call.method === 'tools/call').length;
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await openMcpSettings(laptop.page);
  await addMcpServer(laptop.page, { name: 'everything', url: mcp.counted.url });
  const call: ScriptStep = { text: 'Calling a tool.', toolCalls: [{ name: tool, args }] };
  await useScript(laptop.page, [call, { text: 'Tool said: {{lastToolResult}}' }]);
  const conversationId = await newConversation(laptop.page);
  await send(laptop.page, 'Use the tool');
  const approval = (page: Page) => page.getByRole('group', { name: `Tool call: ${tool}`, exact: true });
  await expect(approval(laptop.page)).toBeVisible();

  await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
  await conversationLink(phone.page, conversationId).click();
  await expect(approval(phone.page)).toBeVisible(REPLICATION);
  return { laptop, phone, conversationId, approval, toolCalls };
}

test('a tool call allowed on the phone runs once, on the laptop, at the real MCP server', async ({ couch, database, device, mcp }) => {
  const { laptop, phone, approval, toolCalls } = await toolCallWaitingOnBoth({ couch, database, device, mcp }, 'mcp__everything__echo', { message: 'allowed on the phone' });
  await approval(phone.page).getByRole('button', { name: 'Allow', exact: true }).click();

  await expect(messageLog(laptop.page)).toContainText('Tool said: Echo: allowed on the phone', REPLICATION);
  await expect(laptop.page.locator('.tool-call')).toContainText('Decided on Phone');
  await expect(messageLog(phone.page)).toContainText('Tool said: Echo: allowed on the phone', REPLICATION);
  await expect.poll(toolCalls, { message: "tools/call requests at the server" }).toBe(1);
});

test('“Continue on this device” on the phone while the laptop is closed: the phone takes the conversation over and goes on', async ({ couch, database, device }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, ONE_QUESTION);
  // The script is a setting of this device (it does not sync): the phone needs it to go on.
  await useScript(phone.page, ONE_QUESTION);
  const conversationId = await askOn(laptop);
  await openSynced(phone, conversationId);
  const runsOnLaptop = phone.page.getByRole('main').getByText('Runs on Laptop', { exact: true });
  await expect(runsOnLaptop).toBeVisible();

  await laptop.context.close();
  await phone.page.getByRole('button', { name: 'Continue on this device', exact: true }).click();
  await expect(runsOnLaptop).toHaveCount(0, REPLICATION);
  await expect(phone.page.getByRole('button', { name: 'Continue on this device', exact: true })).toHaveCount(0);

  // The phone now decides: its answer is applied here, and its own model goes on.
  await answerColor(phone.page, 'Red');
  await expect(messageLog(phone.page)).toContainText(received('Red'));
  await expect(phone.page.getByRole('status').filter({ hasText: 'Sent to' })).toHaveCount(0);
  await send(phone.page, 'and then?');
  await expect(messageLog(phone.page)).toContainText('Third call: and then?');
});

/** A 1×1 PNG, and a text file with words to look for on the server. */
const PIXEL = { name: 'pixel.png', mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64') };
const SECRET_NOTES = { name: 'voyage-notes.md', mimeType: 'text/markdown', buffer: Buffer.from('The zeppelin leaves from hangar nine at dawn.') };

/** The files of the last message the user sent in the open conversation. */
function sentFiles(page: Page): Locator {
  return userMessages(page).last().getByRole('list', { name: 'Files sent with this message', exact: true });
}

/** Waits until the open conversation's last sent image is decoded on screen (its thumbnail has pixels). */
async function expectImageShown(page: Page, options: { timeout?: number; intervals?: number[] } = {}): Promise<void> {
  await expect.poll(() => sentFiles(page).locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth).catch(() => 0), options).toBeGreaterThan(0);
}

test('an image attached on the laptop is shown on the phone once it has synced, and after “Continue on this device” the phone’s model is sent it', async ({ couch, database, device }) => {
  const provider = await startProviderServer();
  try {
    const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
    await useScript(laptop.page, [{ text: 'First reply.' }]);
    const conversationId = await newConversation(laptop.page);
    await attach(laptop.page, PIXEL);
    await send(laptop.page, 'What is in this picture?');
    await expect(messageLog(laptop.page)).toContainText('First reply.');

    await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
    await conversationLink(phone.page, conversationId).click();
    await expect(sentFiles(phone.page).getByRole('listitem')).toHaveText([/pixel\.png/], REPLICATION);
    await expectImageShown(phone.page, REPLICATION);
    await expect(sentFiles(phone.page)).not.toContainText('not here yet');

    // The phone takes the conversation over and talks to its own model (a real OpenAI-compatible server).
    const profile = profileFor(provider, 'OpenAI-compatible');
    await addProfile(phone.page, profile);
    await goHome(phone.page);
    await conversationLink(phone.page, conversationId).click();
    await phone.page.getByRole('button', { name: 'Continue on this device', exact: true }).click();
    await expect(phone.page.getByRole('button', { name: 'Continue on this device', exact: true })).toHaveCount(0, REPLICATION);
    await profileSelect(phone.page).selectOption({ label: profile.name });
    await expect(profileSelect(phone.page).locator('option:checked')).toHaveText(profile.name);
    provider.enqueue({ text: 'Still one pixel.' });
    await send(phone.page, 'And now?');
    await expect(messageLog(phone.page)).toContainText('Still one pixel.');
    await expectChatRequestCount(provider, 1);
    const parts = requestMessages(chatRequests(provider)[0]).find((message) => message.role === 'user' && Array.isArray(message.content))?.content;
    expect(parts).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL.buffer.toString('base64')}` } },
    ]);
  } finally {
    await provider.close();
  }
});

test('after “Continue on this device”, a model step on the phone waits for a file still on its way, says so, goes on without it when it stops coming, and the file follows', async ({ couch, database, device }) => {
  // The laptop reaches the server through a proxy that holds back its writes of a file's chunks (their documents are
  // format 2: attachment-chunks.ts): the message reaches the phone, its file does not.
  const proxy = await startCouchProxy(couch.origin);
  try {
    const laptop = await device('Laptop');
    const phone = await device('Phone');
    await fillSync(laptop.page, { url: proxy.url(database), username: couch.username, password: couch.password, passphrase: PASSPHRASE });
    await expect(syncStatus(laptop.page)).toHaveText(/^Synced/, REPLICATION);
    await goHome(laptop.page);
    await turnOnSync(phone, couch, database);
    await useScript(laptop.page, [{ text: 'First reply.' }]);
    proxy.holdWrites = /"e":2[,}]/;
    const conversationId = await newConversation(laptop.page);
    await attach(laptop.page, PIXEL);
    await send(laptop.page, 'What is in this picture?');
    await expect(messageLog(laptop.page)).toContainText('First reply.');
    await expect.poll(() => proxy.heldWrites(), REPLICATION).toBeGreaterThan(0);

    await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
    await conversationLink(phone.page, conversationId).click();
    await expect(messageLog(phone.page)).toContainText('First reply.', REPLICATION);
    await expect(sentFiles(phone.page)).toContainText('Image not here yet — it is still syncing');
    await phone.page.getByRole('button', { name: 'Continue on this device', exact: true }).click();
    await expect(phone.page.getByRole('button', { name: 'Continue on this device', exact: true })).toHaveCount(0, REPLICATION);
    // The script's step n answers a conversation's n-th model call: the laptop's reply was the first.
    const files = { text: 'Files: {{attachments}}' };
    await useScript(phone.page, [files, files, files]);
    const reply = assistantMessages(phone.page).last();
    await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();

    // The step waits while the file may still come (15 s without a chunk of it), and says so meanwhile.
    await expect(phone.page.getByRole('status').filter({ hasText: 'Waiting for a file still syncing from another device…' })).toBeVisible(REPLICATION);
    await expect(reply).toContainText('Files: pixel.png (not here yet)', { timeout: 60_000 });
    await expect(reply).toContainText('Made without a file that had not reached this device yet: it was still syncing from another device.');
    await expect(phone.page.getByRole('status').filter({ hasText: 'Waiting for a file' })).toHaveCount(0);

    // The laptop's writes get through: the file follows, and the next step is given it.
    proxy.releaseWrites();
    await expectImageShown(phone.page, { timeout: 120_000 });
    await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await expect(reply).toContainText(`Files: pixel.png (image/png, ${PIXEL.buffer.length} bytes)`, REPLICATION);
  } finally {
    await proxy.stop();
  }
});

test('a 5 MB image attached on the laptop is shown on the phone that has the conversation open (measured)', async ({ couch, database, device }) => {
  // The bytes cross the machine four times (sealed, to the server, to the phone, opened): at a load of 10 they took 25 s.
  test.setTimeout(360_000);
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, [{ text: 'First reply.' }, { text: 'Second reply.' }]);
  const conversationId = await conversationWithReply(laptop.page, 'A photo follows');
  await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
  await conversationLink(phone.page, conversationId).click();
  await expect(messageLog(phone.page)).toContainText('First reply.', REPLICATION);

  const photo = { name: 'photo.png', mimeType: 'image/png', buffer: noisePng(1024, 1280) };
  expect(photo.buffer.length).toBeGreaterThan(5_000_000);
  await attach(laptop.page, photo);
  await messageBox(laptop.page).fill('Here it is');
  const sentAt = Date.now();
  await laptop.page.getByRole('button', { name: 'Send', exact: true }).click();
  // The message arrives without waiting for its file's bytes, which follow.
  await expect(userMessages(phone.page)).toHaveCount(2, REPLICATION);
  await expectImageShown(phone.page, { timeout: 180_000, intervals: [50] });
  const shownAfterMs = Date.now() - sentAt;
  test.info().annotations.push({ type: 'measure', description: `a ${(photo.buffer.length / 1e6).toFixed(2)} MB image: Send on the laptop → shown on the phone in ${shownAfterMs} ms` });
  console.log(`[measure] ${(photo.buffer.length / 1e6).toFixed(2)} MB image, Send on the laptop → shown on the phone: ${shownAfterMs} ms`);
});

test('the server holds no plaintext: no message text, title, API key, profile, MCP server or device name in any document', async ({ couch, database, device }) => {
  const apiKey = `sk-parley-sync-e2e-${Math.random().toString(36).slice(2, 12)}-FAKEKEY`;
  const mcpToken = `tok-parley-sync-e2e-${Math.random().toString(36).slice(2, 12)}`;
  const laptop = await device('Laptop');
  // A profile with a recognisable key, then the scripted model as the default (the key is never used, only stored).
  await addProfile(laptop.page, { provider: 'OpenAI-compatible', name: 'Keyed profile', baseUrl: 'http://127.0.0.1:9/keyed-gateway/v1', apiKey, model: 'test-model' });
  // An MCP server with a token (nothing listens there: it is only stored, and synced without the token).
  await openMcpSettings(laptop.page);
  await addMcpServer(laptop.page, { name: 'Vault tools', url: 'http://127.0.0.1:9/vault-mcp', token: mcpToken });
  await goHome(laptop.page);
  await useScript(laptop.page, ONE_QUESTION);
  await turnOnSync(laptop, couch, database);
  const messageText = 'Plan the secret zeppelin voyage';
  // Sent with a file whose words are looked for too: a file's bytes travel, sealed like the rest.
  const conversationId = await newConversation(laptop.page);
  await attach(laptop.page, SECRET_NOTES);
  await send(laptop.page, messageText);
  await expect(questionForm(laptop.page)).toBeVisible();
  const title = 'Zeppelin itinerary';
  await laptop.page.getByRole('button', { name: 'Rename conversation', exact: true }).click();
  const titleBox = laptop.page.getByRole('textbox', { name: /title/i });
  await titleBox.fill(title);
  await titleBox.press('Enter');
  await expect(conversationLink(laptop.page, conversationId)).toHaveText(title);

  const phone = await device('Phone');
  await turnOnSync(phone, couch, database);
  // Everything has crossed the server once the phone shows the renamed conversation and its question.
  await expect(conversationLink(phone.page, conversationId)).toHaveText(title, REPLICATION);
  await conversationLink(phone.page, conversationId).click();
  await expect(questionForm(phone.page)).toBeVisible(REPLICATION);
  // The file's bytes have crossed too once the phone no longer says they are on their way.
  await expect(sentFiles(phone.page).getByRole('listitem')).toHaveText([/voyage-notes\.md/], REPLICATION);
  await expect(sentFiles(phone.page)).not.toContainText('not here yet', REPLICATION);
  // The profile and the server have crossed too (settings sync): their documents are among those scanned.
  await expect(profileSelect(phone.page).locator('option', { hasText: 'Keyed profile' })).toHaveCount(1, REPLICATION);
  await openMcpSettings(phone.page);
  await expect(mcpServerItem(phone.page, 'Vault tools')).toBeVisible(REPLICATION);

  const documents = await couch.allDocuments(database);
  // The key document, the conversation, its messages' segment, the runner, the file's chunk, the profile, the server: anything
  // less means the scan saw nothing.
  expect(documents.length).toBeGreaterThanOrEqual(7);
  const everything = JSON.stringify(documents);
  const notes = SECRET_NOTES.buffer.toString('utf8');
  for (const secret of [messageText, 'zeppelin', 'hangar nine', notes, SECRET_NOTES.buffer.toString('base64'), SECRET_NOTES.name, title, apiKey, 'FAKEKEY', 'Keyed profile', 'keyed-gateway', 'Vault tools', 'vault-mcp', mcpToken, COLOR.question, 'Laptop', 'Phone', PASSPHRASE, conversationId]) {
    expect(everything, `the server's documents contain "${secret}"`).not.toContain(secret);
  }
});

test('a wrong passphrase and a wrong password are told in words in the Sync status', async ({ couch, database, device }) => {
  const laptop = await device('Laptop');
  await turnOnSync(laptop, couch, database);
  const phone = await device('Phone');
  await fillSync(phone.page, { url: database, username: couch.username, password: couch.password, passphrase: 'not the passphrase' });
  await expect(syncStatus(phone.page)).toHaveText('Wrong passphrase. Use the one your other devices use.', REPLICATION);
  await expect(syncRegion(phone.page).getByRole('button', { name: 'Turn on sync', exact: true })).toBeVisible();

  await fillSync(phone.page, { url: database, username: couch.username, password: 'not the password', passphrase: PASSPHRASE });
  await expect(syncStatus(phone.page)).toHaveText('The server refused the password. Check the username and password.', REPLICATION);
  await expect(syncRegion(phone.page).getByRole('button', { name: 'Turn on sync', exact: true })).toBeVisible();
});

/** The PouchDB mirrors in this origin's IndexedDB (PouchDB names a database `_pouch_<name>`, ours `parley-sync-<id>`). */
async function mirrorDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).flatMap(({ name }) => (name?.startsWith('_pouch_parley-sync-') ? [name] : [])));
}

/** Presses "Turn off sync" and answers its question: keep this device's copy of what it synced, or delete it. */
async function turnOffSync(page: Page, copy: 'keep' | 'delete'): Promise<void> {
  await openSettings(page);
  await syncRegion(page).getByRole('button', { name: 'Turn off sync', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off sync?', exact: true });
  await dialog.getByRole('button', { name: copy === 'keep' ? 'Turn off and keep the copy' : 'Turn off and delete the copy', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(syncStatus(page)).toHaveText('Sync is off');
}

test('turning sync off keeps every local conversation, on the device that made them and on the one they came to', async ({ couch, database, device }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, [{ text: 'First reply.' }]);
  const first = await conversationWithReply(laptop.page, 'first conversation');
  const second = await conversationWithReply(laptop.page, 'second conversation');
  for (const conversationId of [first, second]) await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
  await conversationLink(phone.page, second).click();
  await expect(messageLog(phone.page)).toContainText('First reply.', REPLICATION);

  for (const { page } of [laptop, phone]) {
    await turnOffSync(page, 'delete');
    await expect(syncRegion(page).getByRole('button', { name: 'Turn on sync', exact: true })).toBeVisible();
    // Kept in storage, not only on screen: a reload reads them back.
    await page.reload();
    for (const conversationId of [first, second]) await expect(conversationLink(page, conversationId)).toBeVisible();
    await conversationLink(page, first).click();
    await expect(messageLog(page)).toContainText('first conversation');
    await expect(messageLog(page)).toContainText('First reply.');
  }
});

// The security issue's hostile server, end to end: it keeps every revision it was sent (as CouchDB does until compaction)
// and writes an old one's body back as the newest revision, through its ordinary HTTP API. Ids are HMACs and bodies
// ciphertext, so the attacker finds a document the way a server's operator could: by which one a device just wrote.

/** What Settings → Sync's status says once this device refused one document from the server. */
const ONE_REFUSED = '1 document on the server could not be used — it may have been changed by someone else.';

/** Each document's current revision on the server, by id. */
async function revisionsNow(couch: CouchServer, database: string): Promise<Map<string, string>> {
  return new Map((await couch.allDocuments(database)).map((document) => [String(document._id), String(document._rev)]));
}

/** Renames the conversation open on `page` through its header, and waits for the list to say the new title. */
async function rename(page: Page, conversationId: string, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Rename conversation', exact: true }).click();
  const titleBox = page.getByRole('textbox', { name: /title/i });
  await titleBox.fill(title);
  await titleBox.press('Enter');
  await expect(conversationLink(page, conversationId)).toHaveText(title);
}

/** Waits until Settings → Sync says "Synced" (both directions idle, all received applied), then opens a conversation. */
async function syncedThenOpen(page: Page, conversationId: string): Promise<void> {
  await openSettings(page);
  await expect(syncStatus(page)).toHaveText(/^Synced/, REPLICATION);
  await goHome(page);
  await conversationLink(page, conversationId).click();
  await expect(page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
}

/** Settings → Sync says one document was refused, as an older copy written back; its details say so too. */
async function expectOneReplayRefused(page: Page): Promise<void> {
  await openSettings(page);
  await expect(syncStatus(page)).toHaveText(ONE_REFUSED, REPLICATION);
  await syncRegion(page).getByText('Details of what was refused', { exact: true }).click();
  await expect(syncRegion(page).getByText('An older copy written back over a newer one: 1', { exact: true })).toBeVisible();
}

test('a replayed Allow does not re-run a tool after the laptop restarts mid-call', async ({ couch, database, device, mcp }) => {
  // A minute long: the laptop is closed long before it ends, however loaded the machine.
  const { laptop, phone, conversationId, approval: card, toolCalls } = await toolCallWaitingOnBoth({ couch, database, device, mcp }, 'mcp__everything__trigger-long-running-operation', { duration: 60, steps: 60 });

  // The phone's Allow is the one document that appears on the server when it is pressed.
  const before = await revisionsNow(couch, database);
  await card(phone.page).getByRole('button', { name: 'Allow', exact: true }).click();
  await expect.poll(toolCalls, { message: 'tools/call requests at the server', ...REPLICATION }).toBe(1);
  let created: string[] = [];
  await expect.poll(async () => (created = [...(await revisionsNow(couch, database)).keys()].filter((id) => !before.has(id))), REPLICATION).toHaveLength(1);
  const [proposal] = created;
  // The laptop wrote the outcome over it: the revision to replay is the phone's first, without one.
  await expect.poll(async () => (await couch.revisions(database, proposal!)).length, REPLICATION).toBeGreaterThanOrEqual(2);
  const firstRevision = (await couch.revisions(database, proposal!)).at(-1)!;
  expect(firstRevision).toMatch(/^1-/);

  // The laptop's browser closes mid-call (its worker goes with the page) and opens again over the same storage.
  await laptop.page.close();
  laptop.page = await laptop.context.newPage();
  await laptop.page.goto('/');
  await syncedThenOpen(laptop.page, conversationId);
  await expect(card(laptop.page).getByRole('button', { name: 'Run again', exact: true })).toBeVisible();
  await expect(card(laptop.page).getByRole('button', { name: 'Skip', exact: true })).toBeVisible();

  await couch.writeBack(database, proposal!, firstRevision);
  // Once the laptop says it refused the replay, it has read it: the call was not made again, and still waits for a click.
  await expectOneReplayRefused(laptop.page);
  expect(toolCalls()).toBe(1);
  await syncRegion(laptop.page).getByRole('button', { name: 'Clear the warning', exact: true }).click();
  await expect(syncStatus(laptop.page)).toHaveText(/^Synced/);
  await goHome(laptop.page);
  await conversationLink(laptop.page, conversationId).click();
  await expect(card(laptop.page).getByRole('button', { name: 'Run again', exact: true })).toBeVisible();
  // The rerun was decided nowhere: an applied replay would have said the phone decided it.
  await expect(laptop.page.locator('.tool-call')).not.toContainText('Decided on Phone');
  expect(toolCalls()).toBe(1);
});

test('an older conversation record written back does not roll back a title on the phone', async ({ couch, database, device }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, [{ text: 'First reply.' }]);
  const conversationId = await conversationWithReply(laptop.page, 'name this');
  await rename(laptop.page, conversationId, 'First title');
  await expect(conversationLink(phone.page, conversationId)).toHaveText('First title', REPLICATION);
  // Nothing of the laptop's still on its way, so that the second rename is all that is written next.
  await syncedThenOpen(laptop.page, conversationId);

  // The conversation's record is the document the second rename writes; its revision before is the first title's.
  const [since, before] = await Promise.all([couch.updateSeq(database), revisionsNow(couch, database)]);
  await rename(laptop.page, conversationId, 'Second title');
  await expect(conversationLink(phone.page, conversationId)).toHaveText('Second title', REPLICATION);
  const changed = await couch.changedSince(database, since);
  expect(changed).toHaveLength(1);
  const [record] = changed;
  expect(before.has(record!)).toBe(true);

  await couch.writeBack(database, record!, before.get(record!)!);
  await expectOneReplayRefused(phone.page);
  await goHome(phone.page);
  await expect(conversationLink(phone.page, conversationId)).toHaveText('Second title');
  // The laptop wrote the record and runs the conversation: its own copy is the truth, and it keeps its title.
  await expect(conversationLink(laptop.page, conversationId)).toHaveText('Second title');
});

test('a key document deleted on the server is never replaced silently: a new device is told and asked, a syncing one puts its key back', async ({ couch, database, device }) => {
  const laptop = await device('Laptop');
  await turnOnSync(laptop, couch, database);
  await useScript(laptop.page, [{ text: 'First reply.' }]);
  const conversationId = await conversationWithReply(laptop.page, 'keep this');
  await openSettings(laptop.page);
  await expect(syncStatus(laptop.page)).toHaveText(/^Synced/, REPLICATION);

  await couch.deleteDocument(database, 'parley-key');
  // The device that joined with it notices as soon as the deletion reaches it, and says so.
  await expect(syncRegion(laptop.page).getByText(/^The key document is gone from the sync server/)).toBeVisible(REPLICATION);

  // A device turning sync on now is refused in words, and a new key is made only if it asks for one.
  const tablet = await device('Tablet');
  await fillSync(tablet.page, { url: database, username: couch.username, password: couch.password, passphrase: PASSPHRASE });
  await expect(syncStatus(tablet.page)).toContainText('This database holds data, but its key document is gone', REPLICATION);
  await expect(syncRegion(tablet.page).getByRole('button', { name: 'Make a new key and turn on sync', exact: true })).toBeVisible();
  expect((await couch.allDocuments(database)).some((document) => document._id === 'parley-key')).toBe(false);

  // The laptop puts its own key back: the tablet then joins with the same passphrase and sees what the laptop holds.
  await syncRegion(laptop.page).getByRole('button', { name: 'Put this device’s key back', exact: true }).click();
  await expect(syncRegion(laptop.page).getByText(/^The key document is gone/)).toHaveCount(0, REPLICATION);
  await syncRegion(tablet.page).getByRole('button', { name: 'Turn on sync', exact: true }).click();
  await expect(syncStatus(tablet.page)).toHaveText(/^Synced/, REPLICATION);
  await goHome(tablet.page);
  await expect(conversationLink(tablet.page, conversationId)).toHaveText('keep this', REPLICATION);
});

/** The server loses everything: pouchdb-server restarted in memory on the same port, or (a real CouchDB) the database deleted. */
async function loseEverything(couch: CouchServer, database: string): Promise<void> {
  if (couch.restart) await couch.restart();
  else expect((await fetch(database, { method: 'DELETE', headers: { authorization: basicAuthorization(couch.username, couch.password) } })).ok).toBe(true);
}

/** Every conversation is listed on every device, and each opens with its first message (waited for, never read once). */
async function everyoneSeesEverything(devices: Device[], conversations: Map<string, string>): Promise<void> {
  for (const { page } of devices) {
    await goHome(page);
    for (const conversationId of conversations.keys()) await expect(conversationLink(page, conversationId)).toBeVisible(REPLICATION);
    for (const [conversationId, text] of conversations) {
      await conversationLink(page, conversationId).click();
      await expect(messageLog(page)).toContainText(text, REPLICATION);
      await expect(messageLog(page)).toContainText('First reply.', REPLICATION);
    }
  }
}

/** Two old devices, each with a conversation both have; on a server of its own (the test restarts it). */
async function twoOldDevices(couch: CouchServer, database: string, device: (name: string) => Promise<Device>) {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  const conversations = new Map<string, string>();
  for (const { page } of [laptop, phone]) await useScript(page, [{ text: 'First reply.' }]);
  conversations.set(await conversationWithReply(laptop.page, 'written on the laptop before'), 'written on the laptop before');
  conversations.set(await conversationWithReply(phone.page, 'written on the phone before'), 'written on the phone before');
  for (const conversationId of conversations.keys()) for (const { page } of [laptop, phone]) await expect(conversationLink(page, conversationId)).toBeVisible(REPLICATION);
  return { laptop, phone, conversations };
}

test('a server restarted without its data is set up again by an old device: a new device joins with the same passphrase, and all three see every conversation', async ({ device }) => {
  const couch = await startCouchServer();
  try {
    const database = await couch.createDatabase();
    const { laptop, phone, conversations } = await twoOldDevices(couch, database, device);
    for (const { page } of [laptop, phone]) await openSettings(page);
    await loseEverything(couch, database);
    // An old device finds the database gone, sets it up again with its key (the same salt), and says so.
    await expect.poll(async () => (await couch.allDocuments(database).catch(() => [])).some((document) => document._id === 'parley-key'), REPLICATION).toBe(true);
    const restored = (page: Page) => syncRegion(page).getByText(/^The sync server had lost this database\./);
    await expect.poll(async () => (await restored(laptop.page).count()) + (await restored(phone.page).count()), REPLICATION).toBeGreaterThan(0);

    const tablet = await device('Tablet');
    await turnOnSync(tablet, couch, database);
    await useScript(tablet.page, [{ text: 'First reply.' }]);
    conversations.set(await conversationWithReply(tablet.page, 'written on the tablet after'), 'written on the tablet after');
    await goHome(laptop.page);
    conversations.set(await conversationWithReply(laptop.page, 'written on the laptop after'), 'written on the laptop after');

    await everyoneSeesEverything([laptop, phone, tablet], conversations);
    await expectSynced([laptop, phone, tablet]);
  } finally {
    await couch.stop();
  }
});

/** Every device's Settings → Sync says "Synced" (nothing refused, nothing waiting). */
async function expectSynced(devices: readonly { page: Page }[]): Promise<void> {
  for (const { page } of devices) {
    await openSettings(page);
    await expect(syncStatus(page)).toHaveText(/^Synced/, REPLICATION);
  }
}

test('a server set up again by a new device under another key: the old devices say so, refuse a wrong passphrase, join with the right one, and all three see every conversation', async ({ device }) => {
  const couch = await startCouchServer();
  try {
    const database = await couch.createDatabase();
    const { laptop, phone, conversations } = await twoOldDevices(couch, database, device);
    // The old devices are away while the server loses everything, so the new device finds it empty and makes a new key.
    for (const { context } of [laptop, phone]) await context.setOffline(true);
    await loseEverything(couch, database);
    const tablet = await device('Tablet');
    await turnOnSync(tablet, couch, database);
    await useScript(tablet.page, [{ text: 'First reply.' }]);
    conversations.set(await conversationWithReply(tablet.page, 'written on the tablet after'), 'written on the tablet after');
    for (const { context } of [laptop, phone]) await context.setOffline(false);
    conversations.set(await conversationWithReply(laptop.page, 'written on the laptop after'), 'written on the laptop after');

    for (const { page } of [laptop, phone]) {
      await openSettings(page);
      // Said in words, never "Synced"; a passphrase that does not open the new key document is told as wrong.
      await expect(syncStatus(page)).toHaveText(/^Not syncing: the sync server now has another key/, REPLICATION);
      const passphrase = syncRegion(page).getByLabel('Passphrase for the new key', { exact: true });
      const join = syncRegion(page).getByRole('button', { name: 'Join the new key', exact: true });
      await passphrase.fill('not the passphrase');
      await join.click();
      await expect(syncRegion(page).getByRole('alert')).toContainText('Wrong passphrase');
      await passphrase.fill(PASSPHRASE);
      await join.click();
      await expect(syncStatus(page)).toHaveText(/^Synced/, REPLICATION);
    }
    await everyoneSeesEverything([laptop, phone, tablet], conversations);
    // What the server holds now opens on every device: nothing refused anywhere.
    await expectSynced([laptop, phone, tablet]);
  } finally {
    await couch.stop();
  }
});

test('"Synced" is said on a first upload only once the server holds every document', async ({ couch, database, device }) => {
  const laptop = await device('Laptop');
  // One conversation of 6,400 messages (about 1 MB, segments of 64 KB): sealed and written in chunks (a thousand
  // messages at a time), with replication pausing between them.
  const messages = Array.from({ length: 6400 }, (_, seq) => ({ id: `long-m${seq}`, conversationId: 'long', seq, role: seq % 2 === 0 ? 'user' : 'assistant', blocks: [{ type: 'text', text: `Message ${seq}` }], status: 'complete', createdAt: seq, updatedAt: seq }));
  const file = join(tmpdir(), `parley-sync-upload-${process.pid}-${Date.now()}.json`);
  await writeFile(file, JSON.stringify({ format: 'parley-export', version: 1, exportedAt: 1, conversations: [{ conversation: { id: 'long', title: 'Long one', createdAt: 0, updatedAt: 6400, runState: 'idle', completedSteps: 3200 }, messages }] }));
  await openSettings(laptop.page);
  await laptop.page.getByLabel('Import conversations').setInputFiles(file);
  // 6,400 messages validated and written: at a load of 20 that took longer than the default ten seconds.
  await expect(laptop.page.getByRole('status').filter({ hasText: 'Imported 1 conversation' })).toBeVisible({ timeout: 60_000 });

  await fillSync(laptop.page, { url: database, username: couch.username, password: couch.password, passphrase: PASSPHRASE });
  await expect(syncStatus(laptop.page)).toHaveText(/^Synced/, { timeout: 120_000 });
  // Read as soon as it says so: every message is in the segments the server holds (opened here with the passphrase).
  const documents = await couch.allDocuments(database);
  const keys = await openKeyDocument(documents.find((document) => document._id === KEY_DOC_ID) as unknown as KeyDocument, PASSPHRASE);
  const segments = documents.filter((document) => document.e === 3);
  const held = await Promise.all(segments.map(async (document) => (JSON.parse(await open(keys!, document.m as { iv: string; ct: string })) as { messages: unknown[] }).messages.length));
  expect(held.reduce((sum, count) => sum + count, 0)).toBe(6400);
});

test('"Turn off sync" asks whether to keep the mirror: deleted, its IndexedDB database is gone; kept, a later "Turn on sync" uses it again', async ({ couch, database, device }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await useScript(laptop.page, [{ text: 'First reply.' }]);
  const conversationId = await conversationWithReply(laptop.page, 'mirrored conversation');
  await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
  for (const { page } of [laptop, phone]) expect(await mirrorDatabases(page)).toHaveLength(1);

  // Deleted: the space is freed, and nothing says a copy is kept.
  await turnOffSync(laptop.page, 'delete');
  await expect.poll(() => mirrorDatabases(laptop.page)).toEqual([]);
  await expect(syncRegion(laptop.page).getByRole('button', { name: 'Delete the kept copy', exact: true })).toHaveCount(0);

  // Kept: the database stays, Settings says so (and after a reload), and turning sync on again uses the same one.
  const [mirror] = await mirrorDatabases(phone.page);
  await turnOffSync(phone.page, 'keep');
  expect(await mirrorDatabases(phone.page)).toEqual([mirror]);
  await phone.page.reload();
  await openSettings(phone.page);
  await expect(syncRegion(phone.page).getByText(/^This device keeps an encrypted copy of what it synced/)).toBeVisible();
  await turnOnSync(phone, couch, database);
  expect(await mirrorDatabases(phone.page)).toEqual([mirror]);
  await expect(conversationLink(phone.page, conversationId)).toBeVisible();

  // Kept, then deleted while off: "Delete the kept copy" frees it.
  await turnOffSync(phone.page, 'keep');
  await syncRegion(phone.page).getByRole('button', { name: 'Delete the kept copy', exact: true }).click();
  await expect(syncRegion(phone.page).getByRole('button', { name: 'Delete the kept copy', exact: true })).toHaveCount(0);
  await expect.poll(() => mirrorDatabases(phone.page)).toEqual([]);
});

test('a conversation opened on the phone while its records are still arriving shows its question once they have', async ({ couch, database, device }) => {
  // The phone reaches the server through a proxy that holds each pull answer back: what the laptop writes reaches it in
  // late batches, and the phone opens the conversation as soon as it is listed, before its reply and question are there.
  const proxy = await startCouchProxy(couch.origin);
  try {
    const laptop = await device('Laptop');
    const phone = await device('Phone');
    await turnOnSync(laptop, couch, database);
    await fillSync(phone.page, { url: proxy.url(database), username: couch.username, password: couch.password, passphrase: PASSPHRASE });
    await expect(syncStatus(phone.page)).toHaveText(/^Synced/, REPLICATION);
    await goHome(phone.page);
    // The reply streams for about two seconds before its question: it is written (and pushed) several times meanwhile.
    await useScript(laptop.page, { steps: [{ text: `${ASKING_TEXT} ${'Thinking it over. '.repeat(20)}`, toolCalls: [{ name: 'question', args: { questions: [COLOR] } }] }, RECEIVED_STEP], chunkSize: 8, chunkDelayMs: 40 });
    proxy.holdMs = 1500;
    const conversationId = await newConversation(laptop.page);
    await send(laptop.page, 'Plan my project');
    await expect(conversationLink(phone.page, conversationId)).toBeVisible(REPLICATION);
    await conversationLink(phone.page, conversationId).click();
    await expect(phone.page).toHaveURL(new RegExp(`#/c/${conversationId}$`));
    await expect(questionForm(laptop.page)).toBeVisible(REPLICATION);
    await expect(questionForm(phone.page)).toBeVisible(REPLICATION);
    await expect(messageLog(phone.page)).toContainText('Thinking it over.');
    expect(proxy.held).toBeGreaterThan(0);
  } finally {
    await proxy.stop();
  }
});

test('a profile set up on the laptop is used on the phone once its key is typed there; the key never travels', async ({ couch, database, device }) => {
  const provider = await startProviderServer();
  try {
    const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
    const work = profileFor(provider, 'OpenAI-compatible', 'Work model');
    await addProfile(laptop.page, work);
    await goHome(laptop.page);

    // The phone has the profile (without its key): sending with it asks for the key in words and asks nothing of the server.
    await newConversation(phone.page);
    await expect(profileSelect(phone.page).locator('option', { hasText: 'Work model' })).toHaveCount(1, REPLICATION);
    await profileSelect(phone.page).selectOption({ label: 'Work model' });
    await send(phone.page, 'Hello from the phone');
    await expect(phone.page.getByText('This profile came from another device; type its API key here to use it. Nothing was sent.', { exact: true })).toBeVisible();
    expect(chatRequests(provider)).toHaveLength(0);

    const phoneKey = `sk-phone-${Math.random().toString(36).slice(2, 10)}-k3y`;
    provider.enqueue({ text: 'Hello back, with the phone’s own key.' });
    await phone.page.getByLabel('API key for Work model', { exact: true }).fill(phoneKey);
    await phone.page.getByRole('button', { name: 'Use this key', exact: true }).click();
    await expect(assistantMessages(phone.page).last()).toContainText('Hello back, with the phone’s own key.');
    await expect(phone.page.getByLabel('API key for Work model', { exact: true })).toHaveCount(0);
    const [request] = chatRequests(provider);
    expect(request?.headers.authorization).toBe(`Bearer ${phoneKey}`);

    // Neither key is on the server; the laptop keeps its own.
    const everything = JSON.stringify(await couch.allDocuments(database));
    for (const secret of [work.apiKey, phoneKey, 'Work model', provider.url]) expect(everything, `the server's documents contain "${secret}"`).not.toContain(secret);
  } finally {
    await provider.close();
  }
});

test('“Always allow” given on the laptop does not apply on the phone: the server travels, the permission does not', async ({ couch, database, device, mcp }) => {
  const { laptop, phone } = await syncedLaptopAndPhone(couch, database, device);
  await openMcpSettings(laptop.page);
  await addMcpServer(laptop.page, { name: 'everything', url: mcp.everything.url });
  await permissionSelect(laptop.page, 'mcp__everything__echo').selectOption({ label: 'Always allow' });
  await expect(permissionSelect(laptop.page, 'mcp__everything__echo')).toHaveValue('allow');
  await goHome(laptop.page);

  // The server reaches the phone; the phone's own model calls the tool: it asks there, it does not run unasked.
  await openMcpSettings(phone.page);
  await expect(mcpServerItem(phone.page, 'everything')).toBeVisible(REPLICATION);
  await goHome(phone.page);
  await useScript(phone.page, [{ text: 'Calling a tool.', toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'from the phone' } }] }, { text: 'Tool said: {{lastToolResult}}' }]);
  await newConversation(phone.page);
  await send(phone.page, 'Use the tool');
  const approval = phone.page.getByRole('group', { name: 'Tool call: mcp__everything__echo', exact: true });
  await expect(approval).toBeVisible(REPLICATION);
  await expect(approval.getByRole('button', { name: 'Allow', exact: true })).toBeVisible();
  await expect(messageLog(phone.page)).not.toContainText('Tool said:');
  await openMcpSettings(phone.page);
  await expect(permissionSelect(phone.page, 'mcp__everything__echo')).toHaveValue('ask');
  // And the laptop's stays as it was given.
  await openMcpSettings(laptop.page);
  await expect(permissionSelect(laptop.page, 'mcp__everything__echo')).toHaveValue('allow');
});

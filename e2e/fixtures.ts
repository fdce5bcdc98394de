import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { chromium, expect, type BrowserContext, type LaunchOptions, type Locator, type Page } from '@playwright/test';

/**
 * Where `vite preview` serves the production build: a free port, chosen once by the runner and handed to its workers
 * through the environment, so `npm test` works while `npm start` serves the app on 4173. `PARLEY_E2E_PORT` forces one.
 */
export const E2E_PORT = Number((process.env.PARLEY_E2E_PORT ||= String(freePortNow())));
export const BASE_URL = `http://localhost:${E2E_PORT}`;

/** A port nothing listens on now, found synchronously (the config cannot wait): a child node binds port 0 and says which. */
function freePortNow(): number {
  const script = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

/**
 * The one place the browser is configured: the system Chromium (never a downloaded one), flags that keep
 * a headless run quiet and deterministic on small CI machines.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

/** One scripted reply, as the scripted model reads it (src/schema/script.ts). */
export interface ScriptStep {
  text?: string;
  reasoning?: string;
  toolCalls?: { name: string; args?: Record<string, unknown> }[];
}

/** A script: a bare list of steps, or steps with a pace. Step n answers a conversation's n-th model call. */
export type ScriptInput = ScriptStep[] | { steps: ScriptStep[]; chunkSize?: number; chunkDelayMs?: number };

/**
 * Makes the scripted model the default and gives it `script`, through the Settings view as a user would,
 * then goes back to where the page was (a conversation, or the start page).
 */
export async function useScript(page: Page, script: ScriptInput): Promise<void> {
  const returnHash = await page.evaluate(() => location.hash);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  await page.getByRole('combobox', { name: 'Provider', exact: true }).selectOption({ label: 'Scripted' });
  const scriptField = page.getByRole('textbox', { name: 'Script', exact: true });
  const scriptText = JSON.stringify(script, null, 2);
  await scriptField.fill(scriptText);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // "Saved." shows once the worker has stored the script, so the next message already uses it.
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(scriptField).toHaveValue(scriptText);
  const target = returnHash.startsWith('#/c/') ? returnHash : '#/';
  await page.evaluate((hash) => {
    location.hash = hash;
  }, target);
  await expect(page).not.toHaveURL(/#\/settings$/);
}

/** Creates a conversation with the "New conversation" button; resolves with its id once its chat is open. */
export async function newConversation(page: Page): Promise<string> {
  const before = await page.evaluate(() => location.hash);
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await expect(page).toHaveURL(/#\/c\/[^/]+$/);
  let hash = await page.evaluate(() => location.hash);
  if (hash === before) {
    // Already on a conversation: wait for the route to move to the new one.
    await expect.poll(() => page.evaluate(() => location.hash)).not.toBe(before);
    hash = await page.evaluate(() => location.hash);
  }
  await expect(messageBox(page)).toBeVisible();
  return decodeURIComponent(hash.slice('#/c/'.length));
}

/** The composer's textbox. */
export function messageBox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

/**
 * Types `text` into the composer and presses Send; resolves once the worker took the message: the composer is emptied
 * only then. (The log is windowed, so a long reply can push the user's message out of the DOM before a check sees it.)
 */
export async function send(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(messageBox(page)).toHaveValue('');
}

/** Chooses files through "Attach files", as a user does. */
export async function attach(page: Page, ...files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files', exact: true }).click();
  await (await chooser).setFiles(files);
}

/** The messages log. */
export function messageLog(page: Page): Locator {
  return page.getByRole('log', { name: 'Messages', exact: true });
}

/** The assistant's messages in the open conversation, oldest first. */
export function assistantMessages(page: Page): Locator {
  return messageLog(page).getByRole('article', { name: 'Parley', exact: true });
}

/** The user's messages in the open conversation, oldest first. */
export function userMessages(page: Page): Locator {
  return messageLog(page).getByRole('article', { name: 'You', exact: true });
}

/** The conversation list's link to one conversation (links are named by title; the href is the stable part). */
export function conversationLink(page: Page, conversationId: string): Locator {
  return page.getByRole('navigation', { name: 'Conversations', exact: true }).locator(`a[href="#/c/${conversationId}"]`);
}

/**
 * A text of `count` numbered words ("w001 w002 …"). Numbered words make a streamed prefix checkable
 * whatever the UI adds around the text, and show a duplicated or skipped piece.
 */
export function numberedWords(count: number): string {
  return Array.from({ length: count }, (_, index) => `w${String(index + 1).padStart(3, '0')}`).join(' ');
}

/** The numbers of the complete numbered words in `text`, in order (a word cut mid-stream is not counted). */
export function wordNumbers(text: string | null): number[] {
  return [...(text ?? '').matchAll(/w(\d{3})(?!\d)/g)].map((match) => Number(match[1]));
}

/** True when `numbers` is 1, 2, …, n for some n ≥ 0: an unbroken prefix of a numbered text. */
export function isCountingPrefix(numbers: readonly number[]): boolean {
  return numbers.every((value, index) => value === index + 1);
}

/**
 * Takes the context offline and refuses, and records, every request that still tries to leave the browser (the page's,
 * its workers' and the service worker's). The list it returns is what reached for the network: a test asserts it
 * stays empty rather than reading `navigator.onLine`, which some Chromium builds keep `true` under emulation.
 */
export async function cutNetwork(context: BrowserContext): Promise<string[]> {
  const reached: string[] = [];
  await context.route('**/*', (route) => {
    reached.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  await context.setOffline(true);
  return reached;
}

/**
 * Waits until the page's service worker is activated and controls the page. `navigator.serviceWorker.ready`
 * can resolve while the worker is still activating, so its state is awaited too.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active;
    if (!worker || worker.state === 'activated') return;
    await new Promise<void>((resolve) => {
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') resolve();
      });
    });
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none')).toBe('activated');
}

/** A persistent-profile Chromium: the installability check reports `in-incognito` for any other context. */
export interface PersistentBrowser {
  context: BrowserContext;
  /** Closes the browser and deletes its profile directory. */
  close(): Promise<void>;
}

/** Launches Chromium with a fresh temporary profile, same binary and flags as the rest of the suite. */
export async function launchPersistent(): Promise<PersistentBrowser> {
  const profileDirectory = await mkdtemp(join(tmpdir(), 'parley-e2e-'));
  const context = await chromium.launchPersistentContext(profileDirectory, {
    ...chromiumLaunchOptions,
    headless: true,
    baseURL: BASE_URL,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profileDirectory, { recursive: true, force: true });
    },
  };
}

/// <reference lib="webworker" />
// The agent host: one per tab. The only place that opens IndexedDB and calls models.
import { SYSTEM_PROMPT } from '../core/prompt/system-prompt';
import type { AppEvent } from '../schema/events';
import type { WorkerMessage } from '../schema/protocol';
import type { Profile } from '../schema/records';
import { serveCommands } from './tabs/channel-server';
import { isNewerDatabaseError, openParleyDatabase } from './store/database';
import { WireError } from '../schema/wire-error';
import { createFirstScreen, type FirstScreen } from './first-screen/first-screen';
import { webLocks } from './runs/locks';
import { openPeerChannel } from './tabs/peer-channel';
import { clipForPage } from './store/page-copy';

declare const self: DedicatedWorkerGlobalScope;

const post = (event: AppEvent) => self.postMessage({ kind: 'event', event: clipForPage(event) } satisfies WorkerMessage);

const peers = openPeerChannel('parley-peers', {
  hint: (hint) => void screen.then((ready) => ready.host()).then((host) => host.peerHint(hint)).catch(() => undefined),
  // Nothing runs here before the full host exists.
  stop: (conversationId) => void screen.then((ready) => ready.createdHost()?.then((host) => host.peerStop(conversationId))).catch(() => undefined),
});

/** Set once a newer Parley took the database over in another tab: every later command is refused with a clear reason. */
let outdated = false;
const markOutdated = () => {
  if (outdated) return;
  outdated = true;
  post({ type: 'app-outdated' });
};

const locks = webLocks(navigator.locks);
const newId = () => crypto.randomUUID();
// The full host (zod, the loop, the providers' registry; MCP and sync load on use) loads when something needs more than
// the first screen: one file (vite.config.ts, workerFirstReplyChunk).
const loadHostCode = () => import('./host');
// The provider's own code is fetched as soon as the host's has arrived, so a first request after a reload waits for neither.
const prepareModel = (profile: Profile) => void loadHostCode().then((code) => code.prepareProviderCode(profile.kind)).catch(() => undefined);
/** The worker's clock, for the first screen and the full host alike. */
const now = () => Date.now();

const screen: Promise<FirstScreen> = openParleyDatabase(undefined, undefined, { onOutdated: markOutdated }).then((database) => {
  database.addEventListener('close', () => post({ type: 'storage-error', reason: 'database_closed', message: 'The browser closed the database. Reload the page.' }));
  return createFirstScreen({
    database,
    locks,
    newId,
    now,
    post,
    broadcast: (hint) => peers.hint(hint),
    prepareModel,
    warmHost: () => void loadHostCode().catch(() => undefined),
    loadHost: async () => {
      const { abortableSleep, createHost, createModelForProfile, readyConnection } = await loadHostCode();
      return createHost({
        database,
        locks,
        post,
        broadcast: (hint) => peers.hint(hint),
        requestPeerStop: (conversationId) => peers.requestStop(conversationId),
        createModel: async (profile, script) => createModelForProfile(profile, script, { system: SYSTEM_PROMPT }),
        prepareModel,
        readyConnection: (profile) => readyConnection(profile),
        testConnection: async (profile) => (await import('./providers/connection-test')).testConnection(profile),
        now,
        newId,
        timers: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
        sleep: abortableSleep,
        // The import's reader and validators load when an import is made, not with the worker.
        readImport: async (file) => (await import('./transfer/import-reader')).readImportInWorker(file),
      });
    },
  });
});

// The page's supervisor asks now and then whether this worker is alive; answer at once, whatever else is going on.
self.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as { kind?: unknown; id?: unknown } | null;
  if (data?.kind === 'ping' && typeof data.id === 'number') self.postMessage({ kind: 'pong', id: data.id });
});

// Listen at once so no early command is lost; each waits for the database.
serveCommands(self, async (command) => {
  const ready = await screen.catch((error: unknown) => {
    if (isNewerDatabaseError(error)) markOutdated();
    throw error;
  });
  if (outdated) throw new WireError({ code: 'app_outdated', message: 'Parley was updated in another tab. Reload this tab to go on.' });
  return ready.handle(command);
});

screen.then(
  async (ready) => {
    post({ type: 'worker-ready' });
    // Tried whatever navigator.onLine says (it can read false while online): a failed fetch puts a run back to waiting.
    self.addEventListener('online', () => void ready.hostFor(['waiting_network']).then((host) => host?.runs.resumeWaiting()));
    // A run left by a dead tab, one waiting for the network, or sync that was on: the full host at once, as before.
    if (!(await ready.started)) return;
    const host = await ready.host();
    await host.runs.recoverAll();
    await host.runs.resumeWaiting();
  },
  (error: unknown) => {
    if (isNewerDatabaseError(error)) markOutdated();
    else post({ type: 'storage-error', reason: 'open_failed', message: `Parley could not open its storage: ${error instanceof Error ? error.message : String(error)}` });
  },
);

import { BUILT_IN_TOOLS } from '../core/tools/tools';
import type { Tool } from '../core/tools/tool';
import { RequestWaiters } from './requests/request-waiters';
import type { AppEvent, RunNotice } from '../schema/events';
import type { Conversation, ConversationExport, Profile } from '../schema/records';
import type { ConnectionTestResult } from '../schema/protocol';
import { createCommandHandler, type CommandHandle } from './command-handler';
import { pruneAppliedProposals } from './sync/documents/applied-proposals';
import type { ResolveContext } from '../core/requests/requests';
import { lazySearch } from './search/lazy-search';
import { IndexedDbConversationStore } from './store/conversation-store';
import type { ParleyDatabase } from './store/database';
import { viewedConversations, type Locks } from './runs/locks';
import { ModelError, type Model } from '../core/run/model';
import { createLatestThrottle, createProgressThrottle } from './runs/progress-throttle';
import { hintFor, type PeerHint } from './tabs/peer-channel';
import { ChangeFeed, type RecordDiff } from './store/change-feed';
import { prepareProvider } from './first-screen/first-screen-reads';
import { pageEvents } from './tabs/page-events';
import type { PeerHintDeps } from './tabs/peer-hints';
import { RunManager } from './runs/run-manager';
import { SettingsStore } from './settings/settings-store';
import { StoredConfig } from './settings/stored-config';
import { LazyMcpHub, type McpServers } from './mcp/lazy-mcp-hub';
import { SyncGate } from './sync/sync-gate';
import type { Timers } from '../core/run/coalesced-writer';
import { profileAcceptsImages } from '../schema/provider-kinds';
import { withAttachments } from './attachments/attachment-model';
import type { FetchAttachment, StorageEstimate } from './attachments/attachment-files';

const KEY_NEEDED_TEXT = 'This profile came from another device; type its API key here to use it. Nothing was sent.';
const PROFILE_GONE_TEXT = "This conversation's model profile was deleted. Choose a model profile for it above to continue; nothing was sent.";

/** Everything the host takes from its surroundings: the browser in production, fakes in node tests. */
export interface HostEnvironment {
  database: ParleyDatabase;
  locks: Locks;
  /** Events for this tab's UI. */
  post(event: AppEvent): void;
  /** Tells other tabs' workers what changed (they re-read it from IndexedDB). */
  broadcast(hint: PeerHint): void;
  requestPeerStop(conversationId: string): void;
  createModel(profile: Profile, script: string): Promise<Model>;
  /** Loads what `createModel` will need for this profile (its provider's code) ahead of time; never fails. */
  prepareModel?(profile: Profile): void;
  /** Opens a connection to this profile's server for a model request about to follow (see ready-connection.ts); never fails. */
  readyConnection?(profile: Profile): void;
  testConnection(profile: Profile): Promise<ConnectionTestResult>;
  now(): number;
  newId(): string;
  timers: Timers;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  persistIntervalMs?: number;
  /** Tools beyond the built-ins (those of connected MCP servers), asked for each model step and each resolution. */
  extraTools?(): Promise<readonly Tool[]>;
  /** At most one streaming update per message per interval to the UI and other tabs (default 50 ms). */
  progressIntervalMs?: number;
  /**
   * Reads, parses and validates a chosen export file, off this thread in the browser (seconds for a big file would
   * stop the worker answering the page's pings); absent in node tests, where it runs in place.
   */
  readImport?(file: Blob): Promise<ConversationExport>;
  /** False: do not start a stored sync by itself (tests that drive sync themselves). */
  resumeSync?: boolean;
  /** What the browser lets Parley store (navigator.storage.estimate), checked before files are stored; tests inject one. */
  estimateStorage?: StorageEstimate;
}

export interface Host {
  /** Sync: who runs each conversation; started by the `sync.*` commands. */
  sync: SyncGate;
  handle(raw: unknown): Promise<unknown>;
  runs: RunManager;
  store: IndexedDbConversationStore;
  settings: SettingsStore;
  /** MCP servers; `mcp.tools()` gives a conversation's MCP tools. */
  mcp: McpServers;
  /** A peer asked to stop a conversation this worker may be running. */
  peerStop(conversationId: string): void;
  /** A peer said what changed: read it from IndexedDB and tell this tab's UI what is really stored. */
  peerHint(hint: PeerHint): Promise<void>;
}

/** Wires storage, runs and commands together. One per worker (per tab). */
export function createHost(environment: HostEnvironment): Host {
  const emit = (event: AppEvent) => {
    environment.post(event);
    const hint = hintFor(event);
    if (hint) environment.broadcast(hint);
  };
  // One copy of the stored settings, profiles and MCP servers for this worker: see StoredConfig for when it is dropped.
  const config = new StoredConfig(environment.database);
  // Search across conversations: told of every committed write here and of what peers' hints re-read.
  const search = lazySearch(environment.database);
  // Every committed change is published here once; search, sync, the page and the other tabs, and a live run's waiters
  // follow it (docs/architecture.md, "The change feed").
  const feed = new ChangeFeed();
  const committed = (diff: RecordDiff) => feed.publish({ ...diff, source: 'local', scope: 'document' });
  const store = new IndexedDbConversationStore(
    environment.database,
    {
      committed,
      sawConfigGeneration: (generation) => config.observe(generation),
    },
    environment.now,
    environment.newId,
  );
  // Sync: its code loads only when it is on; until then every conversation runs here.
  const sync: SyncGate = new SyncGate({
    database: environment.database,
    newId: environment.newId,
    post: (event) => environment.post(event),
    engineHost: async () => {
      // Once per engine, off any proposal's path: the applied proposals' nonces kept are bounded.
      void pruneAppliedProposals(environment.database).catch(() => undefined);
      // Sync's view of the host loads with its engine.
      const { syncEngineHost, syncedSettingsHost } = await import('./sync/sync-host');
      return syncEngineHost(environment, store, runs, handle, syncedSettingsHost(config, settings, mcp, emit));
    },
  });
  const settings = new SettingsStore(config, environment.newId);
  const mcp = new LazyMcpHub({ database: environment.database, config, newId: environment.newId, onChange: (servers) => emit({ type: 'mcp-servers-changed', servers }) });
  config.onWrite(() => sync.settingsChanged());
  const files = { fetch: (id: string, signal?: AbortSignal) => sync.fetchAttachment(id, signal), onWaiting: (conversationId: string, notice: RunNotice | null) => emit({ type: 'run-notice', conversationId, notice }) };
  const { profileOf, getModel, readyModel } = modelSource(environment, settings, files);

  // Built-ins, then the tools of connected MCP servers (connected lazily, the first time a conversation needs them).
  const getTools = async (): Promise<readonly Tool[]> => [...BUILT_IN_TOOLS, ...((await environment.extraTools?.()) ?? []), ...(await mcp.tools())];

  const runs = createRuns(environment, { store, feed, getModel, readyModel, getTools, emit, runsHere: (conversationId) => sync.runnerElsewhere(conversationId) === undefined });
  // Every stored change reaches search, sync, the page and the other tabs (after the runs' own listener, which settles a
  // streaming copy first).
  feed.listen(search.follow);
  feed.listen(sync.follow);
  feed.listen(pageEvents(environment.post, environment.broadcast));

  const handle = createCommandHandler({
    sync,
    newId: environment.newId,
    store,
    settings,
    runs,
    requestPeerStop: environment.requestPeerStop,
    emit,
    testConnection: environment.testConnection,
    requestChecks: async (_conversationId, { forms }) => requestChecks(await getTools(), forms),
    now: environment.now,
    mcp,
    search,
    ...(environment.readImport ? { readImport: environment.readImport } : {}),
    ...(environment.estimateStorage ? { estimateStorage: environment.estimateStorage } : {}),
    profileOf,
    reads: conversationReads(environment, settings, committed),
  });

  const peerHint = peerHintHandler(config, { settings, mcp, store, runs, feed, post: environment.post });

  // Sync that was on when this worker last ran starts again in the background, after the first screen's reads.
  if (environment.resumeSync !== false) void sync.resumeIfOn();
  return { handle, runs, store, settings, mcp, sync, peerStop: (conversationId) => void runs.stop(conversationId), peerHint };
}

/** What the commands that read a conversation for the page need (its provider prepared, who views it, the feed). */
function conversationReads(environment: HostEnvironment, settings: SettingsStore, committed: (diff: RecordDiff) => void) {
  return {
    database: environment.database,
    prepare: (conversation: Conversation) => prepareProvider(settings, environment.prepareModel, conversation.profileId),
    viewed: () => viewedConversations(environment.locks),
    now: environment.now,
    committed,
  };
}

interface RunDeps {
  store: IndexedDbConversationStore;
  feed: ChangeFeed;
  getModel(conversation: Conversation): Promise<Model>;
  readyModel: ((conversation: Conversation) => void) | undefined;
  getTools(): Promise<readonly Tool[]>;
  emit(event: AppEvent): void;
  /** Whether this device runs the conversation (sync: another device may). */
  runsHere(conversationId: string): boolean;
}

/** The runs of this worker's conversations, with what they show as they go and the waiters of their requests. */
function createRuns(environment: HostEnvironment, { store, feed, getModel, readyModel, getTools, emit, runsHere }: RunDeps): RunManager {
  // A streaming reply between its writes: shown in this tab only; other tabs see each write (about four a second).
  const progress = createProgressThrottle((message) => feed.publish({ messages: [message], source: 'local', scope: 'tab' }), {
    intervalMs: environment.progressIntervalMs ?? 50,
    timers: environment.timers,
  });
  // A tool's progress goes to this tab's UI only, throttled like a streaming message, and is never written: it means
  // nothing once the call ends or the tab closes (a reload shows the call as cut off), and a write per notification
  // would cost an IndexedDB transaction and a cross-tab message each time.
  type ToolProgressEvent = Extract<AppEvent, { type: 'tool-progress' }>;
  const toolProgress = createLatestThrottle<ToolProgressEvent>((event) => event.toolCallId, (event) => environment.post(event), {
    intervalMs: environment.progressIntervalMs ?? 50,
    timers: environment.timers,
  });

  const waiters = new RequestWaiters();
  feed.listen((change) => {
    if (change.scope !== 'document') return;
    for (const message of change.messages ?? []) {
      progress.settle(message.id); // a stored copy replaces any streaming one not yet shown
      waiters.notify(message); // another tab may have answered what a tool of this tab waits for
    }
  });
  return new RunManager(
    store,
    {
      getModel,
      ...(readyModel ? { readyModel } : {}),
      getTools,
      waitForRequest: (messageId, requestId, signal) => waiters.wait(messageId, requestId, signal),
      now: environment.now,
      newId: environment.newId,
      timers: environment.timers,
      sleep: environment.sleep,
      onProgress: (message) => progress.push(message),
      onToolProgress: (message, toolCallId, update) => toolProgress.push({ type: 'tool-progress', conversationId: message.conversationId, messageId: message.id, toolCallId, progress: update }),
      onNotice: (conversationId, notice) => emit({ type: 'run-notice', conversationId, notice }),
      // Its wording (and the storage estimate) loads with the first failure; said plainly if that load fails too.
      onStorageError: (error) =>
        void import('./store/storage-error')
          .then(({ describeStorageError }) => describeStorageError(error))
          .catch(() => ({ message: error instanceof Error ? error.message : String(error) }))
          .then((event) => environment.post({ type: 'storage-error', ...event })),
      ...(environment.persistIntervalMs !== undefined ? { persistIntervalMs: environment.persistIntervalMs } : {}),
    },
    environment.locks,
    runsHere,
  );
}

/** The profile a conversation talks to (its own, else the default), and the model a step of it streams from. */
function modelSource(environment: HostEnvironment, settings: SettingsStore, files: { fetch: FetchAttachment; onWaiting(conversationId: string, notice: RunNotice | null): void }) {
  const profileOf = (conversation: Conversation): Promise<Profile | undefined> => settings.profileFor(conversation.profileId);
  const getModel = async (conversation: Conversation): Promise<Model> => {
    const current = await settings.getSettings();
    const profile = await profileOf(conversation);
    // A deleted profile is not silently replaced by another (perhaps a cloud one): the user picks.
    if (!profile) throw new ModelError('profile_gone', PROFILE_GONE_TEXT);
    // Synced from a device that has its key: asked for in words here, never sent without one to a server that wants it.
    if (profile.keyNeeded && !profile.apiKey) throw new ModelError('key_needed', KEY_NEEDED_TEXT);
    // Every step reads its history's files back from storage (see withAttachments).
    return withAttachments(await environment.createModel(profile, current.script), {
      acceptsImages: profileAcceptsImages(profile),
      // Loaded with the first file a model step reads, not with the worker.
      read: async (metas, signal) => (await import('./attachments/attachment-files')).readAttachmentContents(environment.database, metas, { fetch: files.fetch, signal, onWaiting: (notice) => files.onWaiting(conversation.id, notice) }),
    });
  };
  // A task later: the allowed tool's own request leaves first.
  const ready = environment.readyConnection;
  const readyModel = ready && ((conversation: Conversation) => void environment.timers.setTimeout(() => void profileOf(conversation).then((profile) => profile && ready(profile)).catch(() => undefined), 0));
  return { profileOf, getModel, readyModel };
}

/**
 * How a resolution's params are checked: edited arguments against the tool's schema, a form against the server's. The
 * form's checker is loaded only with `forms` (see CommandHandlerDeps.requestChecks): on an answer's usual path, with
 * no MCP server used yet, it would be a script fetched before the compare-and-set.
 */
async function requestChecks(tools: readonly Tool[], forms: boolean): Promise<Omit<ResolveContext, 'now'> & { tools: readonly Tool[] }> {
  const checkElicitationContent = forms ? (await import('../core/requests/json-schema-form')).checkElicitationContent : undefined;
  return {
    tools,
    checkArgs: (block, params) => {
      const tool = tools.find((candidate) => candidate.name === block.toolName);
      if (!tool) return { ok: false, error: `The tool "${block.toolName}" is no longer available (its server may be disconnected), so it cannot run with edited arguments. Deny it, or reconnect the server.` };
      return tool.check(params);
    },
    checkContent: (request, content) => checkElicitationContent?.(request.payload.requestedSchema, content) ?? { ok: false, error: 'This form can be answered only while the tool that asked it is running.' },
  };
}
export { abortableSleep } from './runs/abortable-sleep';
// What the worker's entry takes with the host's code (one chunk): the model of a profile, and its provider's own code ahead of use.
export { createModelForProfile } from './providers/registry';
export { readyConnection } from './providers/ready-connection';
export { prepareProviderCode } from './providers/provider-kinds';

/**
 * Another tab's hints: the stored settings' copy is dropped as a hint about them arrives, before anything is awaited, so
 * no step that starts after it uses the old copy; the reader (`tabs/peer-hints.ts`) loads with the first hint, and hints
 * that arrive while it loads are read in their order once it is here.
 */
function peerHintHandler(config: StoredConfig, deps: PeerHintDeps): (hint: PeerHint) => Promise<void> {
  let reader: Promise<(hint: PeerHint) => Promise<void>> | undefined;
  return (hint) => {
    if (hint.kind === 'settings' || hint.kind === 'profiles' || hint.kind === 'mcp') config.invalidate();
    reader ??= import('./tabs/peer-hints').then(
      ({ peerHintReader }) => peerHintReader(deps),
      (error: unknown) => {
        reader = undefined;
        throw error;
      },
    );
    return reader.then((read) => read(hint));
  };
}

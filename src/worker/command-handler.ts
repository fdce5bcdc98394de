import type { NewVersion } from './branch-records';
import { parseCommand, type Command, type CommandOf, type CommandResult, type CommandType } from '../schema/commands';
import { WireError } from '../schema/wire-error';
import type { ConversationExport, Conversation, Message, Profile, Settings } from '../schema/records';
import type { ConnectionTestResult } from '../schema/protocol';
import { parseScript } from '../schema/script';
import type { IndexedDbConversationStore } from './conversation-store';
import { OPEN_PAGE_SIZE } from './message-pages';
import { elicitationDead, type RequestTarget } from './request-records';
import type { RequestResolution, ResolveContext } from '../core/requests';
import type { RunManager } from './run-manager';
import { settingsFrom, type SettingsStore } from './settings-store';
import { DEMO_SCRIPT } from './providers/demo-script';
import type { AppEvent } from '../schema/events';
import { createMcpHandlers } from './mcp/mcp-commands';
import { addSettings, exportSettings, offerOf, offersAnything } from './settings-backup';
import type { McpHub } from './mcp/mcp-hub';
import type { ConversationSearch } from './conversation-search';
import type { SyncGate } from './sync/sync-gate';
import type { DeviceRef } from '../schema/device';
import type { Proposal } from '../schema/sync';
import { argumentsDigest } from '../core/approval-binding';
import type { StorageEstimate } from './attachment-files';
import type { PreparedAttachment } from './attachment-records';
import { profileAcceptsImages } from '../schema/limits';

export interface CommandHandlerDeps {
  store: IndexedDbConversationStore;
  settings: SettingsStore;
  runs: RunManager;
  /** Asks other tabs' workers to stop their run of a conversation. */
  requestPeerStop(conversationId: string): void;
  emit(event: AppEvent): void;
  testConnection(profile: Profile): Promise<ConnectionTestResult>;
  /** How a resolution's params are checked: edited arguments against the tool's schema, a form against the server's. */
  requestChecks(conversationId: string): Promise<Omit<ResolveContext, 'now'>>;
  now(): number;
  mcp: McpHub;
  /** Search across conversations (its index is built on the first search). */
  search: ConversationSearch;
  /** Loads, without waiting, what the conversation's next model request will need (its provider's code). */
  prepareModel?(conversation: Conversation): void;
  /** The conversations some tab has on screen (their view locks, see VIEW_LOCK_PREFIX): never discarded as unused. */
  viewedConversations?(): Promise<ReadonlySet<string>>;
  /** Reads, parses and validates a chosen export file (see HostEnvironment.readImport); on this thread when absent. */
  readImport?(file: Blob): Promise<ConversationExport>;
  /** Sync (issue 19): who runs each conversation, and proposals to the device that does. Absent in older tests. */
  sync?: SyncGate;
  /** Ids of new records (attachments, proposed messages); random UUIDs when absent. */
  newId?(): string;
  /** See HostEnvironment.estimateStorage; the browser's when absent. */
  estimateStorage?: StorageEstimate;
  /** The profile a conversation talks to (its own, else the default); undefined when it was deleted. */
  profileOf?(conversation: Conversation): Promise<Profile | undefined>;
}

export { OPEN_PAGE_SIZE } from './message-pages';

type Handlers = { [T in CommandType]: (command: CommandOf<T>) => Promise<CommandResult<T>> };

/** In-browser model storage (issue 11); its code loads on first use, so the worker's start does not wait for it. */
const localModelHandlers: Pick<Handlers, Extract<CommandType, `localModel.${string}`>> = {
  'localModel.status': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.getStatus(command.source))),
  'localModel.download': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.startDownload(command.source))),
  'localModel.cancel': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.cancelDownload(command.source))),
  'localModel.delete': async (command) =>
    (await localModelCommands()).run(() => localModelStore().then(async (store) => (await store.removeModel(command.source), store.getStatus(command.source)))),
  'localModel.import': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.importFiles(command.name, command.files))),
  'localModel.setOptions': async (command) =>
    (await localModelCommands()).run(() => localModelStore().then((store) => store.setOptions(command.source, command))),
  'localModel.storedBytes': async () => (await localModelCommands()).run(() => localModelStore().then(async (store) => ({ bytes: await store.allModelsBytes() }))),
};
const localModelStore = () => import('./providers/in-browser/model-store');
const localModelCommands = () => import('./providers/in-browser/store-errors');

/**
 * Validates a raw command and runs it. A malformed command is refused with `invalid_command` before anything is read
 * or written; every failure is a WireError the UI can show.
 */
export function createCommandHandler(deps: CommandHandlerDeps): ((raw: unknown) => Promise<unknown>) & { applyProposal(proposal: Proposal): Promise<{ status: 'applied' } | { status: 'refused'; reason: string }> } {
  const { store, settings, runs } = deps;
  const viewed = async (): Promise<ReadonlySet<string>> => (await deps.viewedConversations?.()) ?? new Set();

  const handlers: Handlers = {
    'conversation.list': async () => {
      const unrepaired = await runs.recoverAll();
      const conversations = await store.listConversations();
      // A request waiting for the user is likely answered next: its provider's code loads meanwhile (see conversation.open).
      for (const conversation of conversations) if (conversation.runState === 'awaiting_input') deps.prepareModel?.(conversation);
      return conversations.map((conversation) => (unrepaired.has(conversation.id) ? asInterrupted(conversation) : conversation));
    },
    'conversation.create': async (command) => {
      const conversation = await store.createConversation(command.title, (stored) => settingsFrom(stored).defaultProfileId, command.conversationId, await viewed());
      deps.sync?.claim(conversation.id); // made here: this device runs it
      return conversation;
    },
    'conversation.discardUnused': async (command) => {
      const keep = new Set(await viewed());
      if (command.keep) keep.add(command.keep);
      return { removed: await store.discardUnused(keep) };
    },
    'conversation.saveDraft': async (command) => {
      await store.saveComposerDraft(command.conversationId, command.text);
      return { saved: true as const };
    },
    'conversation.rename': (command) => runsHere(command.conversationId) && store.updateConversation(command.conversationId, (conversation) => ({ ...conversation, title: command.title, updatedAt: deps.now() })),
    'conversation.delete': async (command) => {
      runs.stop(command.conversationId);
      deps.requestPeerStop(command.conversationId);
      await store.deleteConversation(command.conversationId);
      return { conversationId: command.conversationId };
    },
    'conversation.open': async (command) => {
      // Opening must work on a full disk: a dead run whose repair cannot be written is shown as interrupted anyway.
      const repair = await runs.tryRecover(command.conversationId);
      const conversation = await store.getConversation(command.conversationId);
      if (!conversation) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists. It may have been deleted in another tab.' });
      // An answer or a message may follow: after a reload its first request would otherwise wait for the provider's code.
      deps.prepareModel?.(conversation);
      // Only the newest page: a 10,000-message conversation opens as fast as a short one; the UI pages back by seq.
      const { messages, earlier } = await store.listNewestMessages(command.conversationId, OPEN_PAGE_SIZE);
      if (repair === 'failed' && conversation.runState === 'running') {
        return { conversation: asInterrupted(conversation), messages: messages.map((message) => (message.status === 'streaming' ? { ...message, status: 'interrupted' as const } : message)), earlier };
      }
      return { conversation, messages, earlier };
    },
    'conversation.setProfile': async (command) => {
      assertRunsHere(command.conversationId);
      if (!(await settings.getProfile(command.profileId))) throw new WireError({ code: 'not_found', reason: 'profile_gone', message: 'That model profile does not exist.', field: 'profileId' });
      return store.updateConversation(command.conversationId, (conversation) => ({ ...conversation, profileId: command.profileId }));
    },
    'conversation.setInstructions': (command) =>
      runsHere(command.conversationId) && store.updateConversation(command.conversationId, (conversation) => {
        const next = { ...conversation };
        if (command.instructions) next.instructions = command.instructions;
        else delete next.instructions;
        return next;
      }),
    'conversation.export': async () => {
      const conversations = (await store.exportAll()).map(withoutProviderDetails);
      // Keys and tokens are never part of an export, nor tool permissions; nor the texts providers sent back with errors.
      return { format: 'parley-export', version: 1, exportedAt: deps.now(), conversations, settings: await exportSettings(settings, deps.mcp) } satisfies ConversationExport;
    },
    'conversation.import': async (command) => {
      // A chosen file is parsed and validated away from this worker's thread (see HostEnvironment.readImport).
      // The import's validators load when an import is made, not with the worker (issue 21.21).
      const file = command.file ? await (deps.readImport ?? readImportInPlace)(command.file) : (await import('../core/import-validation')).validateImport(command.data);
      const choice = command.settings ?? 'skip';
      if (choice === 'ask') {
        const offered = await offerOf(file.settings, settings, deps.mcp);
        if (offersAnything(offered)) return { imported: 0, skipped: 0, repairs: [], settingsOffered: offered };
      }
      // Settings first: imported conversations keep the profiles they name.
      const settingsAdded = choice === 'add' && file.settings ? await addSettings(file.settings, settings, deps.mcp) : undefined;
      if (settingsAdded?.profiles) deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      if (settingsAdded?.script) deps.emit({ type: 'settings-changed', settings: await settings.getSettings() });
      const profiles = new Set((await settings.listProfiles()).map((profile) => profile.id));
      const { imported, skipped, repairs } = await store.importConversations(file, profiles);
      return { imported: imported.length, skipped, repairs, ...(settingsAdded ? { settingsAdded } : {}) };
    },
    'message.send': async (command) => {
      const inputs = command.attachments ?? [];
      if (command.text === '' && inputs.length === 0) throw new WireError({ code: 'invalid_command', reason: 'message_empty', message: 'Write a message or attach a file first.', field: 'text' });
      const elsewhere = deps.sync?.runnerElsewhere(command.conversationId);
      if (elsewhere) {
        // Files stay on the device they were attached on (their bytes are not synced): only text can be proposed.
        if (inputs.length > 0) throw runsElsewhere(elsewhere);
        const messageId = deps.newId?.() ?? crypto.randomUUID();
        return { proposedTo: await deps.sync!.propose(command.conversationId, `message:${messageId}`, { type: 'message', messageId, text: command.text }) };
      }
      const { defaultProfileId } = await settings.getSettings();
      // Files are checked, and the quota, before the run lock and the transaction (reading a Blob is not an IndexedDB request).
      const files = inputs.length === 0 ? [] : await (await import('./attachment-files')).prepareAttachments(inputs, { acceptsImages: await acceptsImages(command.conversationId, defaultProfileId), newId: deps.newId ?? (() => crypto.randomUUID()), ...(deps.estimateStorage ? { estimate: deps.estimateStorage } : {}) });
      return { message: await sendMessage(command.conversationId, command.text, { files }) };
    },
    'attachment.read': async (command) => {
      const stored = await store.readAttachment(command.attachmentId);
      if (!stored) throw new WireError({ code: 'not_found', reason: 'attachment_gone', message: 'This file is no longer stored.' });
      return { blob: stored.blob, mimeType: stored.blob.type };
    },
    'message.regenerate': (command) => runsHere(command.conversationId) && startVersion(command.conversationId, { kind: 'regenerate', messageId: command.messageId }, command.discardPending),
    'message.edit': (command) => runsHere(command.conversationId) && startVersion(command.conversationId, { kind: 'edit', messageId: command.messageId, text: command.text }, command.discardPending),
    'message.selectVersion': (command) => runsHere(command.conversationId) && underLock(command.conversationId, () => store.selectVersion(command.conversationId, command.messageId, { discardPending: command.discardPending === true })),
    'message.deleteVersion': (command) => runsHere(command.conversationId) && underLock(command.conversationId, () => store.deleteVersion(command.conversationId, command.messageId)),
    'run.stop': async (command) => {
      const { conversationId } = command;
      const elsewhere = deps.sync?.runnerElsewhere(conversationId);
      if (elsewhere) return { conversationId, proposedTo: await deps.sync!.propose(conversationId, `stop:${deps.now()}`, { type: 'stop' }) };
      return stopHere(conversationId);
    },
    'run.continue': async (command) => {
      assertRunsHere(command.conversationId);
      await runs.recover(command.conversationId);
      const release = await runs.claim(command.conversationId);
      const continued = await store.transition(command.conversationId, ['interrupted', 'waiting_network', 'error'], 'running').catch((error: unknown) => {
        release();
        throw error;
      });
      if (!continued) {
        release();
        throw new WireError({ code: 'invalid_state', reason: 'nothing_to_continue', message: 'There is nothing to continue in this conversation.' });
      }
      void runs.start(command.conversationId, release);
      return { conversationId: command.conversationId };
    },
    'network.online': async () => {
      await runs.resumeWaiting();
      return { resumed: true as const };
    },
    // The question form's own words for request.resolve: one compare-and-set path for every request.
    'question.answer': (command) => resolve({ ...command, requestId: command.toolCallId }, { approved: true, params: { answers: command.answers } }),
    'question.dismiss': (command) => resolve({ ...command, requestId: command.toolCallId }, { approved: false }),
    'question.saveDraft': async (command) => {
      assertRunsHere(command.conversationId);
      await store.saveDraft({ ...command, requestId: command.toolCallId }, command.draft);
      return { saved: true as const };
    },
    'request.resolve': (command) => {
      const { type: _type, conversationId, messageId, requestId, ...resolution } = command;
      return resolve({ conversationId, messageId, requestId }, resolution);
    },
    'requests.listPending': () => store.listPendingRequests(),
    'settings.get': () => settings.getSettings(),
    'settings.restoreScript': async () => {
      const next: Settings = await settings.updateSettings({ script: DEMO_SCRIPT });
      deps.emit({ type: 'settings-changed', settings: next });
      return next;
    },
    'settings.update': async (command) => {
      const { type: _type, ...update } = command;
      if (update.script !== undefined) {
        const parsed = parseScript(update.script);
        if (!parsed.ok) throw new WireError({ code: 'invalid_command', reason: 'script_invalid', message: parsed.error, field: 'script' });
      }
      const next: Settings = await settings.updateSettings(update);
      deps.emit({ type: 'settings-changed', settings: next });
      return next;
    },
    'profiles.list': () => settings.listProfiles(),
    'profiles.save': async (command) => {
      const saved = await settings.saveProfile(command.profile);
      deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      return saved;
    },
    'profiles.delete': async (command) => {
      await settings.deleteProfile(command.profileId);
      deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      deps.emit({ type: 'settings-changed', settings: await settings.getSettings() });
      return { profileId: command.profileId };
    },
    'profiles.test': async (command) => deps.testConnection(await settings.resolveInput(command.profile)),
    ...createMcpHandlers(deps.mcp),
    ...localModelHandlers,
    'conversation.messages': async (command) => {
      if (!(await store.getConversation(command.conversationId))) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists. It may have been deleted in another tab.' });
      return store.listMessagePage(command.conversationId, command);
    },
    'conversation.search': async (command) => ({ matches: await store.searchMessages(command.conversationId, command.query) }),
    'conversations.search': async (command) => ({ results: await deps.search.search(command.query, command.limit ?? 20) }),
    'storage.conversationSizes': (command) => store.conversationSizes(command.limit),
    'sync.status': () => syncGate().status(),
    'sync.enable': (command) => syncGate().enable(command),
    'sync.disable': () => syncGate().disable(),
    'sync.setDeviceName': (command) => syncGate().setDeviceName(command.name),
    'sync.runners': async () => syncGate().runners(),
    'conversation.takeOver': async (command) => {
      if (!(await store.getConversation(command.conversationId))) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists.' });
      await syncGate().takeOver(command.conversationId);
      return { conversationId: command.conversationId };
    },
  };

  function syncGate(): SyncGate {
    if (!deps.sync) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is not available here.' });
    return deps.sync;
  }

  /** Refuses a change of a conversation another device runs (sync): only that device changes it. */
  function assertRunsHere(conversationId: string): void {
    const elsewhere = deps.sync?.runnerElsewhere(conversationId);
    if (elsewhere) throw runsElsewhere(elsewhere);
  }

  /** `assertRunsHere` as an expression: `runsHere(id) && change()`. */
  function runsHere(conversationId: string): true {
    assertRunsHere(conversationId);
    return true;
  }

  /** Sends the user's message here and starts the run; `options` for a message another device proposed. */
  async function sendMessage(conversationId: string, text: string, options: { messageId?: string; device?: DeviceRef; files?: readonly PreparedAttachment[] } = {}): Promise<Message> {
    await runs.recover(conversationId);
    const release = await runs.claim(conversationId);
    try {
      const device = options.device ?? deps.sync?.device();
      const { files = [], ...rest } = options;
      const { message, run } = await store.appendUserMessage(conversationId, text, (await settings.getSettings()).defaultProfileId, files, { ...rest, ...(device ? { device } : {}) });
      void runs.start(conversationId, release, run);
      return message;
    } catch (error) {
      release();
      throw error;
    }
  }

  async function stopHere(conversationId: string): Promise<{ conversationId: string }> {
    if (runs.stop(conversationId)) return { conversationId };
    const conversation = await store.getConversation(conversationId);
    if (!conversation) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists.' });
    if (conversation.runState === 'running') {
      deps.requestPeerStop(conversationId); // the tab running it writes the stopped state
      await runs.recover(conversationId); // nobody is: repair it (it becomes interrupted, then stopped below)
    }
    await store.stopRun(conversationId);
    deps.emit({ type: 'run-notice', conversationId, notice: null });
    return { conversationId };
  }

  /**
   * Another device's proposal for a conversation this device runs (sync), applied through the same compare-and-set as
   * a click here: the first resolution of a request wins wherever it was made, and the loser is told by the records.
   */
  async function applyProposal(proposal: Proposal): Promise<{ status: 'applied' } | { status: 'refused'; reason: string }> {
    const { action, conversationId } = proposal;
    try {
      if (action.type === 'resolve') {
        const target = { conversationId, messageId: action.messageId, requestId: action.requestId };
        if (action.argsHash) {
          const block = await store.getRequest(target);
          // Approved on the other device for the arguments it showed: a call whose arguments differ here is not that call.
          if (block?.type === 'tool_call' && argumentsDigest(block.args) !== action.argsHash) return { status: 'refused', reason: 'arguments_changed' };
        }
        await resolveHere(target, { approved: action.approved, params: action.params, ...(action.reason !== undefined ? { reason: action.reason } : {}), ...(action.cancel !== undefined ? { cancel: action.cancel } : {}), device: proposal.from });
      } else if (action.type === 'message') {
        await sendMessage(conversationId, action.text, { messageId: action.messageId, device: proposal.from });
      } else {
        await stopHere(conversationId);
      }
      return { status: 'applied' };
    } catch (error) {
      const reason = error instanceof WireError ? (error.reason ?? error.code) : 'failed';
      return { status: 'refused', reason };
    }
  }

  /** Whether the model the conversation talks to takes images (a deleted profile: the send fails later in words). */
  async function acceptsImages(conversationId: string, defaultProfileId: string): Promise<boolean> {
    const conversation = await store.getConversation(conversationId);
    const profile = conversation ? await deps.profileOf?.(conversation) : await settings.getProfile(defaultProfileId);
    return profile ? profileAcceptsImages(profile) : true;
  }

  /** Changes a conversation's branches while holding its run lock, so no run starts meanwhile in this tab or another. */
  async function underLock<T>(conversationId: string, change: () => Promise<T>): Promise<T> {
    await runs.recover(conversationId);
    const release = await runs.claim(conversationId);
    try {
      return await change();
    } finally {
      release();
    }
  }

  /** Stores a new version of a message (regenerated or edited) under the run lock, then runs from it. */
  async function startVersion(conversationId: string, version: NewVersion, discardPending: boolean | undefined): Promise<{ message: Message }> {
    await runs.recover(conversationId);
    const release = await runs.claim(conversationId);
    try {
      const { message, run } = await store.addVersion(conversationId, version, { discardPending: discardPending === true });
      void runs.start(conversationId, release, run);
      return { message };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Resolves a request by compare-and-set, then lets the run go on. A question or an approval starts a run here (the
   * run lock is claimed first: when another tab already resolved it and runs, the compare-and-set says so with the
   * first outcome). An elicitation is answered to the live run that asked, which goes on by itself.
   */
  async function resolve(target: RequestTarget, resolution: RequestResolution): Promise<{ message: Message; proposedTo?: DeviceRef }> {
    const elsewhere = deps.sync?.runnerElsewhere(target.conversationId);
    if (elsewhere) {
      const block = await store.getRequest(target);
      const message = await store.getMessage(target.messageId);
      if (!block || !message) throw new WireError({ code: 'not_found', reason: 'request_gone', message: 'This request is no longer here.' });
      const argsHash = block.type === 'tool_call' ? argumentsDigest(block.args) : undefined;
      const proposedTo = await deps.sync!.propose(target.conversationId, `request:${target.messageId}:${target.requestId}`, {
        type: 'resolve', messageId: target.messageId, requestId: target.requestId, approved: resolution.approved,
        ...(resolution.params !== undefined ? { params: resolution.params } : {}),
        ...(resolution.reason !== undefined ? { reason: resolution.reason } : {}),
        ...(resolution.cancel !== undefined ? { cancel: resolution.cancel } : {}),
        ...(argsHash ? { argsHash } : {}),
      });
      return { message, proposedTo };
    }
    const device = deps.sync?.device();
    return resolveHere(target, device ? { ...resolution, device } : resolution);
  }

  /** The compare-and-set of a resolution on this device, which runs the conversation. */
  async function resolveHere(target: RequestTarget, resolution: RequestResolution): Promise<{ message: Message }> {
    const checks = await deps.requestChecks(target.conversationId);
    // The usual case, nobody running the conversation (its lock is free): the compare-and-set is the only transaction
    // before the run, which starts from what it read. An elicitation found there has lost its run: refused, repaired.
    const free = await runs.tryClaim(target.conversationId);
    if (free) {
      try {
        const { message, conversation, run } = await store.resolveRequest(target, resolution, checks, { noLiveRun: true });
        if (conversation.runState === 'running') void runs.start(target.conversationId, free, run);
        else free();
        return { message };
      } catch (error) {
        free();
        if (error instanceof WireError && error.reason === 'elicitation_dead') await runs.recover(target.conversationId);
        throw error;
      }
    }
    const request = await store.getRequest(target);
    if (request?.type === 'elicitation_request' && request.status === 'pending' && !(await runs.isRunningAnywhere(target.conversationId))) {
      await runs.recover(target.conversationId);
      throw elicitationDead();
    }
    if (request?.type === 'elicitation_request') {
      const { message } = await store.resolveRequest(target, resolution, checks);
      return { message };
    }
    const release = await runs.claim(target.conversationId).catch(() => undefined);
    try {
      const { message, conversation, run } = await store.resolveRequest(target, resolution, checks);
      if (conversation.runState === 'running') void runs.start(target.conversationId, release, run);
      else release?.();
      return { message };
    } catch (error) {
      release?.();
      throw error;
    }
  }

  const handle = async (raw: unknown) => {
    const parsed = parseCommand(raw);
    if (!parsed.success) {
      const { field } = parsed;
      throw new WireError({ code: 'invalid_command', reason: 'malformed_command', message: `Malformed command${field ? ` (${field})` : ''}: ${parsed.message}`, ...(field ? { field } : {}) });
    }
    const handler = handlers[parsed.data.type] as (command: Command) => Promise<unknown>;
    return handler(parsed.data);
  };
  return Object.assign(handle, { applyProposal });
}

/** The words for a change refused because another device runs the conversation. */
function runsElsewhere(device: DeviceRef): WireError {
  return new WireError({
    code: 'invalid_state',
    reason: 'runs_elsewhere',
    params: { device: device.name },
    message: `This conversation runs on ${device.name || 'another device'}. Press "Continue on this device" to change it here.`,
  });
}

/** A chosen file parsed on this thread: for node tests, which have no Worker. */
async function readImportInPlace(file: Blob): Promise<ConversationExport> {
  return (await import('../core/import-validation')).parseImportText(await file.text());
}

/** How a dead run is shown when its repair could not be stored. */
function asInterrupted(conversation: Conversation): Conversation {
  return conversation.runState === 'running' ? { ...conversation, runState: 'interrupted' } : conversation;
}

/** Error codes whose message quotes a model provider's answer (which may echo a key, a URL, an account). */
const PROVIDER_ERROR_CODES = new Set(['auth', 'not_found', 'rate_limited', 'server', 'network', 'cors', 'bad_stream', 'bad_request']);

function providerErrorText(code: string): string {
  return `The model provider reported an error (${code}); its details are not part of an export.`;
}

/** An exported conversation with provider error texts replaced by their code. */
function withoutProviderDetails<Entry extends { conversation: Conversation; messages: Message[] }>(entry: Entry): Entry {
  const conversation = entry.conversation.runError && PROVIDER_ERROR_CODES.has(entry.conversation.runError.code)
    ? { ...entry.conversation, runError: { code: entry.conversation.runError.code, message: providerErrorText(entry.conversation.runError.code) } } // no detail: it holds the server's words
    : entry.conversation;
  const messages = entry.messages.map((message) =>
    message.blocks.some((block) => block.type === 'error' && PROVIDER_ERROR_CODES.has(block.code))
      ? { ...message, blocks: message.blocks.map((block) => (block.type === 'error' && PROVIDER_ERROR_CODES.has(block.code) ? { type: 'error' as const, code: block.code, message: providerErrorText(block.code) } : block)) }
      : message,
  );
  // The rest of the entry (its files) as it was.
  return { ...entry, conversation, messages };
}


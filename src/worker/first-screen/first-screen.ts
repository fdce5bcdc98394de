import type { AppEvent } from '../../schema/events';
import type { Profile, RunState } from '../../schema/records';
import type { ParleyDatabase } from '../store/database';
import { readFirstScreenCommand, type FirstScreenCommand } from './first-screen-commands';
import { discardUnusedConversations, listConversations, messagePage, openConversation, prepareProvider, type ReadDeps } from './first-screen-reads';
import type { Host } from '../host';
import { viewedConversations, type Locks } from '../runs/locks';
import { listPendingRequests } from '../requests/pending-requests';
import type { PeerHint } from '../tabs/peer-channel';
import { pageEvents } from '../tabs/page-events';
import { SettingsStore } from '../settings/settings-store';
import { StoredConfig } from '../settings/stored-config';
import { SYNC_KEY, syncOffStatus } from '../sync/device';
import { messagesIn } from '../store/store-context';
import { repairDeadRun } from '../../core/run/run-repair';

interface FirstScreenDeps {
  database: ParleyDatabase;
  locks: Locks;
  newId(): string;
  /** Events for this tab's UI. */
  post(event: AppEvent): void;
  /** Tells other tabs' workers what changed. */
  broadcast(hint: PeerHint): void;
  /** Loads a profile's provider code ahead of its first request (see HostEnvironment.prepareModel); never fails. */
  prepareModel?(profile: Profile): void;
  /** Creates the full host: called once, the first time something needs more than the first screen. */
  loadHost(): Promise<Host>;
  /** Fetches the full host's code without creating it, when a command that needs it is likely next. */
  warmHost?(): void;
  /** The clock records are stamped with (the full host's `now`). */
  now(): number;
}

export interface FirstScreen {
  /** Answers a command: here when it is a first-screen read this module can vouch for, else by the full host. */
  handle(raw: unknown): Promise<unknown>;
  /** The full host, created now if it was not yet. */
  host(): Promise<Host>;
  /** The full host when it exists, or when a stored conversation is in one of `states` (it is created then). */
  hostFor(states: readonly RunState[]): Promise<Host | undefined>;
  /** The full host if it was created; undefined while nothing needed it (then nothing runs in this worker). */
  createdHost(): Promise<Host> | undefined;
  /** True when what is stored needed the full host at start: a run to repair or to resume, or sync that was on. */
  readonly started: Promise<boolean>;
}

/** Run states the full host acts on at start: a run its dead tab left (to repair), one waiting for the network (to resume). */
const START_STATES: readonly RunState[] = ['running', 'waiting_network'];

/**
 * The worker's first screen without zod, the loop, MCP or sync (docs/architecture.md, "The first screen"): settings,
 * profiles, the conversation list, opening an idle conversation and the pending requests, answered by the very reads the
 * full host's handlers call (first-screen-reads.ts), each command read from its one declaration. Everything else, and
 * everything once the full host exists, goes to the full host, which validates every command with zod before it acts.
 * The full host is created at start when what is stored needs it (START_STATES, sync on), so repairs run as before; a
 * request waiting for the user only fetches its code, since answering it is likely next.
 */
export function createFirstScreen(deps: FirstScreenDeps): FirstScreen {
  const { database } = deps;
  const settings = new SettingsStore(new StoredConfig(database), deps.newId);
  // After this turn: the answer is posted first.
  const later = createAfterFirstScreen((run) => setTimeout(run, 0));
  const loadLater = later.load;

  /** The profile's provider (the default one's when `profileId` is absent) starts loading once the first screen is answered. */
  const prepareProfile = (profileId: string | undefined) => loadLater(() => prepareProvider(settings, deps.prepareModel, profileId));
  let created: Promise<Host> | undefined;
  // What needs the full host is most often a new conversation, whose first message goes to the default profile: its
  // provider loads beside the host's code, so a message sent as soon as the composer shows does not wait for it.
  const host = () => (created ??= (prepareProfile(undefined), deps.loadHost()));

  const started = (async () => {
    const [syncOn, needed, waiting] = await Promise.all([database.get('settings', SYNC_KEY), anyIn(database, START_STATES), anyIn(database, ['awaiting_input'])]);
    if (waiting && deps.warmHost) loadLater(deps.warmHost);
    return Boolean(syncOn) || needed;
  })().catch(() => true);
  void started.then((needed) => (needed ? host() : undefined)).catch(() => undefined);

  const reads: ReadDeps = {
    database,
    prepare: (conversation) => prepareProfile(conversation.profileId),
    viewed: () => viewedConversations(deps.locks),
    now: deps.now,
    // As the full host's change feed hands this change to the page and the other tabs.
    committed: (diff) => pageEvents(deps.post, deps.broadcast)({ ...diff, source: 'local', scope: 'document' }),
  };

  return {
    async handle(raw) {
      const command = readFirstScreenCommand(raw);
      if (command && !(await started) && !created) {
        later.begin();
        try {
          const answer = await answerHere(command, { database, settings, reads, deps, loadLater });
          if (answer) return answer.result;
        } finally {
          later.end(command.type);
        }
      }
      return (await host()).handle(raw);
    },
    host,
    async hostFor(states) {
      if (!created && !(await anyIn(database, states))) return undefined;
      return host();
    },
    createdHost: () => created,
    started,
  };
}

interface AnswerContext {
  database: ParleyDatabase;
  settings: SettingsStore;
  reads: ReadDeps;
  deps: FirstScreenDeps;
  /** Runs a load once the first screen has been answered (createAfterFirstScreen). */
  loadLater(load: () => void): void;
}

/** The command's result, or undefined when the full host must answer it (what it reads needs a repair, or sync). */
async function answerHere(command: FirstScreenCommand, { database, settings, reads, deps, loadLater }: AnswerContext): Promise<{ result: unknown } | undefined> {
  switch (command.type) {
    case 'settings.get':
      return { result: await settings.getSettings() };
    case 'profiles.list':
      return { result: await settings.listProfiles() };
    case 'sync.status':
      // On: the full host (it resumed sync at start).
      return (await database.get('settings', SYNC_KEY)) ? undefined : { result: await syncOffStatus(deps) };
    case 'requests.listPending':
      return { result: await listPendingRequests(database) };
    case 'conversation.list':
      // A run left running by a dead tab is repaired (or watched) by the full host first.
      return (await anyIn(database, ['running'])) ? undefined : { result: await listConversations(reads) };
    case 'conversation.discardUnused':
      // With sync on, another device's conversation can look unused here: the full host knows who runs what.
      return (await database.get('settings', SYNC_KEY)) ? undefined : { result: await discardUnusedConversations(reads, command) };
    case 'conversation.open': {
      if (await needsRepair(database, command.conversationId)) return undefined;
      const result = await openConversation(reads, command);
      // A message may follow: the full host's code loads meanwhile, after the provider's (openConversation asked for it).
      if (deps.warmHost) loadLater(deps.warmHost);
      return { result };
    }
    case 'conversation.messages':
      return { result: await messagePage(reads, command) };
  }
}

/** What the full host repairs first (RunManager.recover): a dead run, or a request's run that died mid-call. */
async function needsRepair(database: ParleyDatabase, conversationId: string): Promise<boolean> {
  const conversation = await database.get('conversations', conversationId);
  if (conversation?.runState === 'running') return true;
  const path = () => messagesIn(database.transaction(['conversations', 'messages'], 'readonly'), conversationId);
  return conversation?.runState === 'awaiting_input' && repairDeadRun(await path(), 0).changed.length > 0;
}

/** Whether a stored conversation is in one of `states`. */
async function anyIn(database: ParleyDatabase, states: readonly RunState[]): Promise<boolean> {
  const index = database.transaction('conversations').store.index('by-run-state');
  const counts = await Promise.all(states.map((state) => index.count(state)));
  return counts.some((count) => count > 0);
}

/**
 * Code a likely next step needs (the full host, a provider's) loads once the first screen has been answered: loaded at
 * start, its evaluation held the worker's thread while the first reads waited (a reload with a request
 * waiting painted its form ~100 ms later). Answered: the list was, and no other first-screen read is under way. What
 * waits runs through `schedule` (after the turn that posts the last answer), in the order it was asked for; once
 * answered, a load runs at once.
 */
export function createAfterFirstScreen(schedule: (run: () => void) => void) {
  let served = false;
  let listAnswered = false;
  let underWay = 0;
  const waiting: Array<() => void> = [];
  return {
    load(load: () => void): void {
      if (served) load();
      else waiting.push(load);
    },
    /** A first-screen read begins. */
    begin(): void {
      underWay += 1;
    },
    /** A first-screen read of `type` was answered (or failed). */
    end(type: FirstScreenCommand['type']): void {
      underWay -= 1;
      if (type === 'conversation.list') listAnswered = true;
      if (served || !listAnswered || underWay > 0) return;
      served = true;
      schedule(() => {
        for (const load of waiting.splice(0)) load();
      });
    },
  };
}

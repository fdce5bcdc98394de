import 'fake-indexeddb/auto';
import { createHost, abortableSleep, type Host } from '../../src/worker/host';
import { openParleyDatabase } from '../../src/worker/store/database';
import { memoryLocks, type Locks } from '../../src/worker/runs/locks';
import { createModelForProfile } from '../../src/worker/providers/registry';
import type { AppEvent } from '../../src/schema/events';
import type { CommandOf, CommandResult, CommandType } from '../../src/schema/commands';
import type { Model } from '../../src/core/run/model';
import type { Tool } from '../../src/core/tools/tool';
import type { Profile } from '../../src/schema/records';
import type { PeerHint } from '../../src/worker/tabs/peer-channel';

let databaseCounter = 0;

/** A fresh database name per test, so tests never share state. */
export function uniqueDatabaseName(): string {
  databaseCounter += 1;
  return `parley-test-${process.pid}-${databaseCounter}-${Math.random().toString(36).slice(2)}`;
}

export interface TestTab {
  host: Host;
  events: AppEvent[];
  send<T extends CommandType>(command: CommandOf<T>): Promise<CommandResult<T>>;
  close(): void;
}

export interface TabOptions {
  databaseName: string;
  locks: Locks;
  /** Other tabs of the same "browser" (a live array: push tabs opened later). They get this tab's broadcasts and stop requests. */
  peers?: TestTab[];
  createModel?: (profile: Profile, script: string) => Promise<Model>;
  /** Coalesced writes of a streaming message; short by default so tests see them quickly. */
  persistIntervalMs?: number;
  /** Tools beyond the built-ins, as connected MCP servers would offer them. */
  tools?: readonly Tool[];
  prepareModel?: (profile: Profile) => void;
  readyConnection?: (profile: Profile) => void;
  /** Every hint this tab's worker broadcasts to other tabs, recorded in order. */
  hints?: PeerHint[];
  /** What the "browser" says Parley uses and may store; none by default (nothing is refused for the quota). */
  estimateStorage?: () => Promise<{ usage?: number; quota?: number } | undefined>;
}

/**
 * A tab's worker host over fake-indexeddb: the real store, loop, run manager and command handler. Tabs made with the same
 * database name and locks behave like tabs of one browser.
 */
export async function openTab(options: TabOptions): Promise<TestTab> {
  const database = await openParleyDatabase(options.databaseName);
  const events: AppEvent[] = [];
  const peers = options.peers ?? [];
  let counter = 0;
  const prefix = Math.random().toString(36).slice(2, 6);
  const host = createHost({
    database,
    locks: options.locks,
    post: (event) => events.push(event),
    broadcast: (hint) => {
      options.hints?.push(hint);
      peers.forEach((peer) => void peer.host.peerHint(hint));
    },
    requestPeerStop: (conversationId) => peers.forEach((peer) => peer.host.peerStop(conversationId)),
    createModel: options.createModel ?? ((profile, script) => createModelForProfile(profile, script)),
    estimateStorage: options.estimateStorage ?? (async () => undefined),
    testConnection: async () => ({ ok: true, message: 'ok' }),
    now: () => Date.now(),
    newId: () => `${prefix}-${(counter += 1)}`,
    timers: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) },
    sleep: abortableSleep,
    persistIntervalMs: options.persistIntervalMs ?? 5,
    ...(options.tools ? { extraTools: async () => options.tools! } : {}),
    ...(options.prepareModel ? { prepareModel: options.prepareModel } : {}),
    ...(options.readyConnection ? { readyConnection: options.readyConnection } : {}),
  });
  const tab: TestTab = {
    host,
    events,
    send: (command) => host.handle(command) as never,
    close: () => database.close(),
  };
  return tab;
}

/** Waits until the conversation's stored run state satisfies `predicate` (the loop runs in the background). */
export async function waitForRunState(tab: TestTab, conversationId: string, states: string[], timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const conversation = await tab.host.store.getConversation(conversationId);
    if (conversation && states.includes(conversation.runState) && !tab.host.runs.isRunningHere(conversationId)) return;
    if (Date.now() - started > timeoutMs) throw new Error(`run state stayed ${conversation?.runState}, expected ${states.join('|')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A script as the Settings textbox holds it, with no delay between chunks. */
export function script(steps: unknown[], pace: { chunkDelayMs?: number; chunkSize?: number } = {}): string {
  return JSON.stringify({ steps, chunkDelayMs: pace.chunkDelayMs ?? 0, chunkSize: pace.chunkSize ?? 50 });
}

type Put = (this: unknown, ...args: unknown[]) => unknown;
const storePrototype = (globalThis as unknown as { IDBObjectStore: { prototype: { put: Put } } }).IDBObjectStore.prototype;
const realPut = storePrototype.put;

/**
 * From now on, every IndexedDB put of a value `fails` picks throws as it does when the quota is used up (the
 * transaction aborts); the others are written. Call the result to stop.
 */
export function failWrites(fails: (value: unknown) => boolean): () => void {
  storePrototype.put = function (this: unknown, ...args: unknown[]) {
    if (fails(args[0])) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return realPut.apply(this, args);
  };
  return () => {
    storePrototype.put = realPut;
  };
}

export { memoryLocks };

/** A question, named as the question form names it. */
export interface QuestionTarget {
  conversationId: string;
  messageId: string;
  toolCallId: string;
}

/** The question form's answer: `request.resolve` with the answers. */
export function answerCommand(target: QuestionTarget, answers: unknown) {
  const { toolCallId, ...rest } = target;
  return { type: 'request.resolve' as const, ...rest, requestId: toolCallId, approved: true, params: { answers } };
}

/** The question form's Dismiss: `request.resolve`, not approved. */
export function dismissCommand(target: QuestionTarget) {
  const { toolCallId, ...rest } = target;
  return { type: 'request.resolve' as const, ...rest, requestId: toolCallId, approved: false };
}

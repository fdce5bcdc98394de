import { runConversation, type LoopPorts, type RunEnd } from '../../core/run/loop';
import type { IndexedDbConversationStore } from '../store/conversation-store';
import { runLockName, type Locks } from './locks';
import { WireError } from '../../schema/wire-error';
import { hasPendingElicitation } from '../../core/run/run-repair';
import type { RunSnapshot } from '../../core/run/store';

/**
 * Runs conversations' loops in this worker, one at a time per conversation across all tabs (a Web Lock each),
 * and repairs runs that died with their tab.
 */
export class RunManager {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<RunEnd | undefined> }>();
  private networkRetry: { timer: unknown; attempt: number } | undefined;
  /** Conversations another tab is running, whose run lock this worker waits on (see `watch`). */
  private readonly watching = new Set<string>();

  constructor(
    private readonly store: IndexedDbConversationStore,
    private readonly ports: Omit<LoopPorts, 'store'>,
    private readonly locks: Locks,
    /**
     * Sync: whether this device runs the conversation. Another device's conversation is stored here as that
     * device wrote it; its "running" is that device's live run, never a dead one of this device to repair or resume.
     */
    private readonly runsHere: (conversationId: string) => boolean = () => true,
  ) {}

  isRunningHere(conversationId: string): boolean {
    return this.active.has(conversationId);
  }

  /** Whether a run of the conversation is alive in this tab or another (someone holds its run lock). */
  async isRunningAnywhere(conversationId: string): Promise<boolean> {
    if (this.active.has(conversationId)) return true;
    const release = await this.locks.tryAcquire(runLockName(conversationId));
    if (!release) return true;
    release();
    return false;
  }

  /**
   * Takes the conversation's run lock for a command that is about to set it running, so no other tab can mistake the
   * new run for a dead one in between. Refuses with `busy` when another tab is running it; waits out a brief holder
   * (another tab's recovery check).
   */
  async claim(conversationId: string): Promise<() => void> {
    const release = await this.locks.tryAcquire(runLockName(conversationId));
    if (release) return release;
    const conversation = await this.store.getConversation(conversationId);
    // Running, or waiting for the user inside a live run (a tool's elicitation): busy, not a wait that may never end.
    if (conversation?.runState === 'running' || (conversation?.runState === 'awaiting_input' && hasPendingElicitation(await this.store.listMessages(conversationId)))) {
      throw new WireError({ code: 'busy', reason: 'run_in_other_tab', message: 'A reply is still being written in another tab. Stop it first, or wait for it to finish.' });
    }
    return this.locks.acquire(runLockName(conversationId));
  }

  /** Takes the conversation's run lock if nobody holds it (no IndexedDB read); null when someone does. */
  tryClaim(conversationId: string): Promise<(() => void) | null> {
    return this.locks.tryAcquire(runLockName(conversationId));
  }

  /**
   * Runs a conversation whose stored state is `running`, under its lock: `release` when the caller claimed it,
   * otherwise it is waited for and the state checked again (another tab may have run or repaired it meanwhile).
   * `begin`: what the claiming caller just stored as running, in its transaction, so the run starts without reading it
   * again. Resolves when the run ends.
   */
  start(conversationId: string, release?: () => void, begin?: RunSnapshot): Promise<RunEnd | undefined> {
    const existing = this.active.get(conversationId);
    if (existing) {
      release?.();
      return existing.done;
    }
    const controller = new AbortController();
    const done = (async () => {
      const held = release ?? (await this.locks.acquire(runLockName(conversationId)));
      try {
        const run = release && begin ? begin : await this.store.readRun(conversationId);
        if (run?.conversation.runState !== 'running' || !this.runsHere(conversationId)) return undefined;
        if (controller.signal.aborted) {
          // Stopped before the first step: leave it idle, not "running" with nothing running.
          await this.store.transition(conversationId, ['running'], 'idle', 'stopped');
          return 'stopped' as const;
        }
        const end = await runConversation(conversationId, { ...this.ports, store: this.store }, controller.signal, run);
        if (end === 'waiting_network') this.scheduleNetworkRetry();
        else if (this.networkRetry?.timer === undefined) this.networkRetry = undefined; // reached the model: back off from scratch next time
        return end;
      } catch (error) {
        // A failure outside the loop's own handling (storage gone): leave a state the user can continue from.
        this.ports.onStorageError?.(error);
        // Retried, and reported if it still fails: a swallowed failure here left the conversation "running" for good.
        await this.retried(() => this.store.repairDeadRun(conversationId)).catch((final: unknown) => this.ports.onStorageError?.(final));
        return 'interrupted' as const;
      } finally {
        this.active.delete(conversationId);
        held();
      }
    })();
    this.active.set(conversationId, { controller, done });
    return done;
  }

  /** Aborts this worker's run of the conversation. True when there was one. */
  stop(conversationId: string): boolean {
    const run = this.active.get(conversationId);
    if (!run) return false;
    run.controller.abort(new DOMException('Stopped by the user', 'AbortError'));
    return true;
  }

  /**
   * A conversation stored as `running` whose lock nobody holds was running in a tab that died (reload, crash):
   * mark it and its streaming message interrupted, so the user can continue it. Never replays a step.
   */
  async recover(conversationId: string): Promise<boolean> {
    if (this.active.has(conversationId) || !this.runsHere(conversationId)) return false;
    const release = await this.locks.tryAcquire(runLockName(conversationId));
    if (!release) {
      this.watch(conversationId); // someone runs it now: notice the moment they are gone
      return false;
    }
    try {
      return (await this.store.repairDeadRun(conversationId)) !== undefined;
    } finally {
      release();
    }
  }

  /**
   * Another tab runs this conversation: wait on its run lock, which the browser releases the moment that tab (or its
   * worker) dies, and if the conversation is still marked running then, mark it interrupted so this tab can offer
   * Continue instead of "Writing…" forever. A run that ended normally left another state, and nothing is written.
   */
  watch(conversationId: string): void {
    if (this.active.has(conversationId) || this.watching.has(conversationId) || !this.runsHere(conversationId)) return;
    this.watching.add(conversationId);
    void this.locks.acquire(runLockName(conversationId)).then(async (release) => {
      try {
        if (!this.active.has(conversationId)) await this.store.repairDeadRun(conversationId);
      } catch (error) {
        this.ports.onStorageError?.(error);
      } finally {
        this.watching.delete(conversationId);
        release();
      }
    });
  }

  /**
   * Repairs every conversation left `running` by a dead tab. A repair that cannot be written (a full disk) is reported,
   * never thrown: reading must not depend on writing. Resolves with the ids whose run is dead but still stored running.
   */
  async recoverAll(): Promise<Set<string>> {
    const unrepaired = new Set<string>();
    const conversations = await this.store.listConversations();
    for (const conversation of conversations) {
      if (conversation.runState !== 'running') continue;
      if ((await this.tryRecover(conversation.id)) === 'failed') unrepaired.add(conversation.id);
    }
    return unrepaired;
  }

  /** `recover` for readers: 'failed' means the run is dead but its repair could not be written (and was reported). */
  async tryRecover(conversationId: string): Promise<'done' | 'failed'> {
    try {
      await this.recover(conversationId);
      return 'done';
    } catch (error) {
      this.ports.onStorageError?.(error);
      return 'failed';
    }
  }

  /** Runs a state write up to three times, waiting a little longer each time (storage may free up, a lock may clear). */
  private async retried<T>(write: () => Promise<T>): Promise<T> {
    const never = new AbortController().signal;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await write();
      } catch (error) {
        if (attempt >= 2) throw error;
        await this.ports.sleep(200 * 5 ** attempt, never);
      }
    }
  }

  /**
   * Tries waiting runs again later, backing off from 5 s to a minute: the browser's "online" event is a hint that does
   * not always reach a worker, and a server can come back while the browser never went offline.
   */
  private scheduleNetworkRetry(): void {
    if (this.networkRetry?.timer !== undefined) return;
    const attempt = (this.networkRetry?.attempt ?? 0) + 1;
    const timer = this.ports.timers.setTimeout(() => {
      this.networkRetry = { timer: undefined, attempt };
      void this.resumeWaiting();
    }, Math.min(60_000, 5_000 * 2 ** (attempt - 1)));
    this.networkRetry = { timer, attempt };
  }

  /** Resumes every conversation that was waiting for the network (call when the browser is back online). */
  async resumeWaiting(): Promise<void> {
    if (this.networkRetry?.timer !== undefined) this.ports.timers.clearTimeout(this.networkRetry.timer);
    this.networkRetry = { timer: undefined, attempt: this.networkRetry?.attempt ?? 0 };
    const conversations = await this.store.listConversations();
    for (const conversation of conversations) {
      if (conversation.runState !== 'waiting_network' || !this.runsHere(conversation.id)) continue;
      const release = await this.locks.tryAcquire(runLockName(conversation.id));
      if (!release) continue;
      const resumed = await this.store.transition(conversation.id, ['waiting_network'], 'running').catch(() => undefined);
      if (resumed) void this.start(conversation.id, release);
      else release();
    }
  }
}

import type { DeviceRef } from '../../schema/sync/device';
import type { SyncStatus } from '../../schema/sync/sync';
import type { ReplicationState } from './mirror/replication-status';
import type { PouchMirror } from './mirror/pouch-mirror';
import type { SyncEngine } from './sync-engine';

/** The status without the device it is about: what the service says in Settings → Sync. */
export type SyncState = Omit<SyncStatus, 'device'>;

/**
 * What the status is read from: the service's mirror and engine, whether the server watch lets it replicate, this
 * device, and whether a mirror was kept while off; `post` sends the status to the page.
 */
export interface StatusSources {
  mirror(): PouchMirror | undefined;
  engine(): SyncEngine | undefined;
  replicating(): boolean;
  device(): DeviceRef;
  mirrorKept(): boolean | undefined;
  post(status: SyncStatus): void;
}

/**
 * The status sync says ("Syncing 120 of 3,400", "Synced", "Offline"), from the replication's word, the network and this
 * device's own writes: the service (sync-service.ts) starts and stops sync and tells this what happened.
 */
export class SyncStatusReport {
  private state: SyncState = { state: 'off' };
  /** Replication's last word was "paused with nothing left" (its `synced`): Synced once this device's writes are out too. */
  private replicationIdle = false;
  /** What the server's key document is, when it is not the one this device joined with (see ServerWatch). */
  private keyDocument: SyncStatus['keyDocument'];

  constructor(private readonly sources: StatusSources) {}

  get current(): SyncState {
    return this.state;
  }

  set(next: SyncState): void {
    this.state = next;
    this.posted();
  }

  /** Sends the status to the page as it is now. */
  posted(): void {
    this.sources.post(this.snapshot());
  }

  /** The status as the page gets it: with this device, what was refused, the key document's state or a kept mirror. */
  snapshot(): SyncStatus {
    const on = this.state.state !== 'off';
    const refused = on ? this.sources.engine()?.refused() : undefined;
    const { keyDocument } = this;
    return { ...this.state, device: this.sources.device(), ...(refused ? { refused } : {}), ...(on && keyDocument ? { keyDocument } : {}), ...(!on && this.sources.mirrorKept() ? { mirrorKept: true } : {}) };
  }

  /** The server's key document as ServerWatch found it (`undefined`: the one this device joined with, or not known yet). */
  keyDocumentIs(state: SyncStatus['keyDocument']): void {
    if (state === this.keyDocument) return;
    this.keyDocument = state;
    this.posted();
  }

  /** A mirror starts on `url` (sync turned on, or started again): Syncing, nothing known yet of the server's key document. */
  started({ url, username }: { url: string; username: string }): void {
    this.keyDocument = undefined;
    this.replicationIdle = false;
    this.set({ state: 'syncing', url, username });
  }

  /** Sync turned off: the server's key document is no longer this device's concern. */
  off(): void {
    this.keyDocument = undefined;
    this.set({ state: 'off' });
  }

  /** `next` on the same server, keeping when it was last Synced. */
  sameServer(next: SyncState): SyncState {
    const { url, username, lastSyncedAt } = this.state;
    return { url, username, ...(lastSyncedAt ? { lastSyncedAt } : {}), ...next };
  }

  /** A replication starts (or the mirror it runs on): Synced again only once one of its rounds says so. */
  replicationStarted(): void {
    this.replicationIdle = false;
  }

  /** The network went away: say so now (an idle replication would not notice); back, it is syncing again. */
  network(online: boolean): void {
    // Synced again only once a replication round says so.
    this.replicationIdle = false;
    this.set(this.sameServer({ state: online ? 'syncing' : 'offline' }));
  }

  /** What the replication said; offline or a failing server is not said here (the service looks at the server). */
  replicated(state: ReplicationState): void {
    if (state.state !== 'synced') this.replicationIdle = false;
    if (state.state === 'syncing') this.set(this.sameServer({ state: 'syncing', ...(state.total !== undefined ? { progress: { done: Math.min(state.done, state.total), total: state.total } } : {}) }));
    else if (state.state === 'synced') {
      this.replicationIdle = true;
      this.syncedIfDone();
    } else if (state.state === 'error' && state.reason !== 'server_error') this.set(this.sameServer({ state: 'error', reason: state.reason }));
  }

  /** The engine started (`current` while it is the service's): what it refuses is said, and when its writes are out. */
  follow(engine: SyncEngine, current: () => boolean): void {
    engine.onRefusal(() => this.posted());
    // A push that wrote documents makes replication active again, and its next pause says Synced; one that wrote
    // nothing new leaves replication paused, so the status is decided here.
    engine.onWritesIdle((wrote) => {
      if (!wrote && current()) this.syncedIfDone();
    });
    if (engine.refused()) this.posted();
    this.syncedIfDone();
  }

  /**
   * "Synced" only once replication is idle AND this device's own writes have reached the mirror and what the mirror sends
   * the server itself has been answered: a first upload seals its records gradually, and replication pauses between
   * them (it said "Synced" before the documents were on the server).
   */
  syncedIfDone(): void {
    const mirror = this.sources.mirror();
    if (!this.replicationIdle || !mirror || !this.sources.replicating()) return;
    const { url, username } = this.state;
    const sends = mirror.sends();
    if (sends) void sends.then(() => this.syncedIfDone());
    const engine = this.sources.engine();
    if (!engine || engine.writesPending || sends) {
      if (this.state.state !== 'syncing') this.set({ url, username, ...(this.state.lastSyncedAt ? { lastSyncedAt: this.state.lastSyncedAt } : {}), state: 'syncing' });
      return;
    }
    this.set({ url, username, state: 'synced', lastSyncedAt: Date.now() });
  }
}

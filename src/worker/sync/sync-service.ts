import type { DeviceRef } from '../../schema/sync/device';
import { WireError } from '../../schema/wire-error';
import type { SyncStatus } from '../../schema/sync/sync';
import { keepMirror, takeKeptMirror } from './mirror/kept-mirror';
import { MIRROR_NAME_PREFIX, openPouchMirror, type PouchMirror, type RemoteAccess } from './mirror/pouch-mirror';
import { rekeyMirror } from './mirror/rekey-mirror';
import { checkedUrl, openReplacedKey, openServer, putKeyBack, refusal } from './server/server-join';
import { ServerWatch } from './server/server-watch';
import { watchNetwork } from './network-watch';
import type { ReplicationState } from './mirror/replication-status';
import { SyncStatusReport } from './sync-status-report';
import type { KeyDocument, SyncKeys } from './documents/sync-crypto';
import { SyncEngine } from './sync-engine';
import type { SyncGateDeps } from './engine-context';
import type { Mirror } from './mirror/mirror';
import { DEVICE_KEY, KEPT_MIRROR_KEY, loadDevice, SYNC_KEY } from './device';
import { markPhase } from './sync-measures';

/** Sync's settings on this device: the server and its password (a secret like an API key) and the derived keys. */
interface StoredSync extends RemoteAccess {
  /** Non-extractable CryptoKeys: IndexedDB keeps them as they are; the passphrase itself is never stored. */
  keys: SyncKeys;
  /** The local PouchDB database that mirrors the server's. */
  localName: string;
  /** The key document this device joined with (nothing in it is secret), to notice it gone or replaced, and put it back. */
  keyDocument?: KeyDocument;
}

/** How often, at most, the server's key document is looked at again once a replication round has ended. */
const KEY_CHECK_INTERVAL_MS = 30_000;

/**
 * Where the running engine lives (the gate, which the host asks who runs what): the service starts it there over its
 * mirror, stops it, and renames the device it stamps.
 */
export interface EngineSlot {
  attach(mirror: Mirror, keys: SyncKeys, device: DeviceRef): Promise<SyncEngine>;
  detach(): Promise<void>;
  renamed(device: DeviceRef): Promise<void>;
}

/** Sync's code, loaded when sync is first used (see SyncGate). One per worker. */
export class SyncService {
  device: DeviceRef = { id: '', name: '' };
  private engine: SyncEngine | undefined;
  private mirror: PouchMirror | undefined;
  private stored: StoredSync | undefined;
  private stopWatchingNetwork: (() => void) | undefined;
  /** A mirror kept by "Turn off sync" waits for a later "Turn on sync" (said while off, so it can be deleted). */
  private mirrorKept: boolean | undefined;
  /** Whether the server is still the one this device joined, for the mirror started last. */
  private watch: ServerWatch | undefined;
  private readonly report = new SyncStatusReport({
    mirror: () => this.mirror,
    engine: () => this.engine,
    replicating: () => this.watch?.replicating === true,
    device: () => this.device,
    mirrorKept: () => this.mirrorKept,
    post: (status) => this.deps.post({ type: 'sync-status', status }),
  });

  constructor(
    private readonly deps: SyncGateDeps,
    private readonly gate: EngineSlot,
  ) {}

  async status(): Promise<SyncStatus> {
    await this.loadDevice();
    return this.report.snapshot();
  }

  /** Sync was on when this worker last ran: start it again with what is stored. */
  async resume(): Promise<void> {
    await this.loadDevice();
    const stored = (await this.deps.database.get('settings', SYNC_KEY)) as StoredSync | undefined;
    if (stored && !this.mirror) await this.start(stored);
  }

  /**
   * Checks the server (reachable, the password accepted, a database Parley can use) and the passphrase (it opens the
   * database's key document, or makes one for an empty database), then starts syncing. Nothing is stored on a refusal.
   */
  async enable(input: { url: string; username: string; password: string; passphrase: string; newKey?: boolean }): Promise<SyncStatus> {
    await this.loadDevice();
    if (!globalThis.crypto?.subtle) throw refusal('sync_unreachable', 'This browser has no WebCrypto here (the page must be served over HTTPS or from localhost), so nothing can be encrypted.');
    const url = checkedUrl(input.url);
    const access: RemoteAccess = { url, username: input.username, password: input.password };
    if (this.mirror) await this.stopEngine();
    this.report.set({ state: 'starting', url, username: input.username });
    try {
      markPhase('enable');
      const { keys, document } = await openServer(access, input.passphrase, input.newKey === true);
      markPhase('keys');
      const { _rev: _revision, ...keyDocument } = document;
      const stored: StoredSync = { ...access, keys, keyDocument: keyDocument as KeyDocument, localName: await takeKeptMirror(this.deps, url, document) };
      this.mirrorKept = false;
      await this.deps.database.put('settings', stored, SYNC_KEY);
      await this.start(stored, { joined: true });
      return this.report.snapshot();
    } catch (error) {
      this.report.set({ state: 'off' });
      throw error;
    }
  }

  /**
   * Stops syncing and forgets the server, its password and the keys. Conversations all stay. The local mirror is deleted
   * (its space freed), or with `keepMirror` kept for a later "Turn on sync" with the same server and key document, which
   * then need not download everything again. Asked while off, deletes a mirror kept before.
   */
  async disable(options: { keepMirror?: boolean } = {}): Promise<SyncStatus> {
    await this.loadDevice();
    const stored = this.stored ?? ((await this.deps.database.get('settings', SYNC_KEY)) as StoredSync | undefined);
    // Kept only when a later "Turn on sync" can tell it mirrors the same server under the same key.
    const kept = options.keepMirror && stored?.keyDocument ? { localName: stored.localName, url: stored.url, keyDocument: stored.keyDocument } : undefined;
    await this.stopEngine(kept ? 'close' : 'destroy');
    await keepMirror(this.deps.database, kept);
    this.mirrorKept = kept !== undefined;
    await this.deps.database.delete('settings', SYNC_KEY);
    this.stored = undefined;
    this.report.off();
    this.deps.post({ type: 'sync-runners', runners: {} });
    return this.report.snapshot();
  }

  async setDeviceName(name: string): Promise<SyncStatus> {
    await this.loadDevice();
    this.device = { ...this.device, name };
    await this.deps.database.put('settings', this.device, DEVICE_KEY);
    await this.gate.renamed(this.device);
    this.report.posted();
    return this.report.snapshot();
  }

  /** Starts the mirror and the engine; `joined`: the server was looked at just now (see ServerWatch.joined). */
  private async start(stored: StoredSync, { joined = false } = {}): Promise<void> {
    const mirror = openPouchMirror(stored.localName, stored);
    this.mirror = mirror;
    this.stored = stored;
    this.report.started(stored);
    // Replicated only once the server is known to be the one this device joined (the server may have lost its data).
    this.watch?.stop();
    this.watch = new ServerWatch(stored, stored.keyDocument, mirror, {
      replicate: (started) => {
        this.report.replicationStarted();
        started.replicate((state) => this.onReplication(state));
      },
      say: (next) => this.report.set({ ...this.report.sameServer(next), url: stored.url, username: stored.username }),
      keyDocumentIs: (state) => this.report.keyDocumentIs(state),
    });
    if (joined) this.watch.joined();
    else void this.watch.lookAtServer();
    this.stopWatchingNetwork?.();
    this.stopWatchingNetwork = watchNetwork((online) => this.onNetwork(online));
    // Caught up with the mirror in the background: the app works meanwhile, as on any device without sync.
    const attaching = this.gate.attach(mirror, stored.keys, this.device);
    this.engine = undefined;
    void attaching.then(
      (engine) => {
        this.engine = engine;
        engine.onKeyDocumentChange(() => void this.watch?.lookAtServer());
        this.report.follow(engine, () => this.engine === engine);
      },
      () => this.report.set({ ...this.report.current, state: 'error', reason: 'server_error' }),
    );
  }

  /** Stops the engine and the replication, and closes the mirror or deletes it (a closed PouchDB cannot be destroyed). */
  private async stopEngine(end: 'close' | 'destroy' = 'close'): Promise<void> {
    this.engine = undefined;
    this.watch?.stop();
    this.watch = undefined;
    this.stopWatchingNetwork?.();
    this.stopWatchingNetwork = undefined;
    await this.gate.detach();
    await (end === 'close' ? this.mirror?.close() : this.mirror?.destroy())?.catch(() => undefined);
    this.mirror = undefined;
  }

  /** The network went away: say so now (an idle replication would not notice); back, reconnect now, not after a backoff. */
  private onNetwork(online: boolean): void {
    if (!this.mirror) return;
    this.report.network(online);
    if (online) this.watch?.reconnect();
  }

  private onReplication(state: ReplicationState): void {
    this.report.replicated(state);
    if (state.state === 'synced') {
      this.watch?.synced();
      if (this.watch && Date.now() - this.watch.lookedAt >= KEY_CHECK_INTERVAL_MS) void this.watch.lookAtServer();
    } else if (state.state === 'offline' || (state.state === 'error' && state.reason === 'server_error')) {
      // Offline, a database gone, a server failing: what the server is now is looked at before anything replicates again.
      this.watch?.failed();
    }
  }

  /** "Put this device's key back": the key document this device joined with, written where it is gone. */
  async restoreKey(): Promise<SyncStatus> {
    await this.loadDevice();
    const stored = this.stored;
    if (!stored?.keyDocument) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is off, or this device does not know its key document.' });
    await putKeyBack(stored, stored.keyDocument);
    await this.watch?.lookAtServer();
    return this.report.snapshot();
  }

  /**
   * The server was set up again under another key document (another salt; its data was lost, and a device made it
   * again): the passphrase opens it, and everything this device's mirror holds — its own conversations and what it
   * mirrors of others' — is sealed again under the new key into a new mirror, which uploads it. A passphrase that does
   * not open the new key document is refused as a wrong passphrase, and nothing changes.
   */
  async rejoin(passphrase: string): Promise<SyncStatus> {
    await this.loadDevice();
    const stored = this.stored;
    const old = this.mirror;
    if (!stored?.keyDocument || !old) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is off.' });
    const joined = await openReplacedKey(stored, stored.keyDocument, passphrase);
    if (!joined) {
      await this.watch?.lookAtServer();
      return this.report.snapshot();
    }
    const { keys, document } = joined;
    this.report.set({ url: stored.url, username: stored.username, state: 'syncing' });
    const localName = `${MIRROR_NAME_PREFIX}${this.deps.newId()}`;
    const next = openPouchMirror(localName, stored);
    try {
      await rekeyMirror({ mirror: old, keys: stored.keys }, { mirror: next, keys }, this.device.id);
    } finally {
      await next.close();
    }
    const rekeyed: StoredSync = { ...stored, keys, keyDocument: document, localName };
    await this.deps.database.put('settings', rekeyed, SYNC_KEY);
    await this.stopEngine('destroy');
    await this.start(rekeyed);
    return this.report.snapshot();
  }

  private async loadDevice(): Promise<void> {
    if (!this.device.id) this.device = await loadDevice(this.deps);
    this.mirrorKept ??= (await this.deps.database.get('settings', KEPT_MIRROR_KEY)) !== undefined;
  }

  /** Forgets what was refused so far: the warning goes until something else is refused. */
  async clearRefusals(): Promise<SyncStatus> {
    await this.loadDevice();
    this.engine?.clearRefusals();
    return this.report.snapshot();
  }
}

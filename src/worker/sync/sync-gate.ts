import type { DeviceRef } from '../../schema/sync/device';
import { WireError } from '../../schema/wire-error';
import type { ProposedCommand, RemoteRunners, SyncStatus } from '../../schema/sync/sync';
import type { Change } from '../store/change-feed';
import type { ParleyDatabase } from '../store/database';
import type { SyncEngineHost } from './engine-context';
import type { SyncEngine } from './sync-engine';
import type { Mirror } from './mirror/mirror';
import type { SyncKeys } from './documents/sync-crypto';
import type { SyncGateDeps } from './engine-context';
import type { EngineSlot, SyncService } from './sync-service';

export type { SyncGateDeps } from './engine-context';
import { DEVICE_KEY, loadDevice, SYNC_KEY, syncOffStatus } from './device';


/**
 * What the host knows of sync without loading it: PouchDB and the crypto code load only when sync is on, so
 * a user who never turns it on pays one settings read at start. While off, every conversation runs here.
 */
export class SyncGate implements EngineSlot {
  private service: SyncService | undefined;
  private loading: Promise<SyncService> | undefined;
  /** The running engine and this device, while sync is on. */
  private active: { engine: SyncEngine; device: DeviceRef; started?: boolean } | undefined;

  constructor(private readonly deps: SyncGateDeps) {}

  /** Starts sync in the background when it was on when this worker last ran. Never throws. */
  async resumeIfOn(): Promise<void> {
    try {
      if (await this.deps.database.get('settings', SYNC_KEY)) await (await this.load()).resume();
    } catch {
      // Reported in the status; a sync that cannot start never stops the app from working on this device.
    }
  }

  /** The device that runs the conversation when another does; undefined when this device decides. */
  runnerElsewhere(conversationId: string): DeviceRef | undefined {
    return this.active?.engine.runnerElsewhere(conversationId);
  }

  /** This device, while sync is on (stamped on what the user decides here); undefined while off. */
  device(): DeviceRef | undefined {
    return this.active?.device;
  }

  /**
   * Follows the change feed: what this worker stored is pushed (another tab's worker pushes its own), and a conversation
   * imported here is run here.
   */
  readonly follow = (change: Change): void => {
    if (change.scope !== 'document') return;
    const engine = this.active?.engine;
    if (change.source !== 'local') {
      engine?.noteElsewhere(change);
      return;
    }
    for (const conversation of change.imported ?? []) this.claim(conversation.id);
    if (!engine) return;
    for (const conversationId of change.removed ?? []) engine.noteDeleted(conversationId);
    if (change.conversation || change.messages || change.removedMessages) engine.noteChange(change);
  };

  /** This worker wrote settings, profiles or MCP servers: what of them syncs goes out (another tab's worker sends its own). */
  settingsChanged(): void {
    this.active?.engine.settingsChanged();
  }

  claim(conversationId: string): void {
    void this.active?.engine.claim(conversationId).catch(() => undefined);
  }

  async propose(conversationId: string, command: ProposedCommand): Promise<DeviceRef> {
    const engine = this.active?.engine;
    if (!engine) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is off.' });
    return engine.propose(conversationId, command);
  }

  /** While sync is off this loads none of its code: the app asks on every start. */
  async status(): Promise<SyncStatus> {
    if (this.service || (await this.deps.database.get('settings', SYNC_KEY))) return (await this.load()).status();
    return syncOffStatus(this.deps);
  }

  async restoreKey(): Promise<SyncStatus> {
    return (await this.load()).restoreKey();
  }

  async rejoin(passphrase: string): Promise<SyncStatus> {
    return (await this.load()).rejoin(passphrase);
  }

  async clearRefusals(): Promise<SyncStatus> {
    return (await this.load()).clearRefusals();
  }

  async enable(input: { url: string; username: string; password: string; passphrase: string; newKey?: boolean }): Promise<SyncStatus> {
    return (await this.load()).enable(input);
  }

  /** Turns sync off; its mirror is deleted unless `keepMirror` (then kept for a later "Turn on sync"). */
  async disable(options: { keepMirror?: boolean } = {}): Promise<SyncStatus> {
    return (await this.load()).disable(options);
  }

  async setDeviceName(name: string): Promise<SyncStatus> {
    if (this.service) return this.service.setDeviceName(name);
    const device = { ...(await loadDevice(this.deps)), name };
    await this.deps.database.put('settings', device, DEVICE_KEY);
    return this.status();
  }

  runners(): RemoteRunners {
    return this.active?.engine.remoteRunners() ?? {};
  }

  /**
   * The conversations other devices run, once this device knows them: undefined while sync is on but its engine has
   * not yet read who runs what (a worker starting, or sync being turned on), so nothing is taken for this device's own.
   */
  async knownRunners(): Promise<RemoteRunners | undefined> {
    if (this.active?.started) return this.active.engine.remoteRunners();
    if (this.active || (await this.deps.database.get('settings', SYNC_KEY))) return undefined;
    return {};
  }

  /**
   * A file another device sent, put together from the mirror if its chunks are all there: true when it is stored here
   * now, false when it is still on its way; undefined while sync is off (then a file not stored here is gone). Throws
   * `storage_full` when it is all here but there is no space to store it. With `waitFor` (a model step's signal), a file
   * still on its way is waited for while its chunks keep coming (FileArrivals).
   */
  async fetchAttachment(attachmentId: string, waitFor?: AbortSignal): Promise<boolean | undefined> {
    const engine = this.active?.engine;
    return engine ? engine.fetchAttachment(attachmentId, waitFor).catch((error: unknown) => (error instanceof WireError && error.code === 'storage_full' ? Promise.reject(error) : false)) : undefined;
  }

  async takeOver(conversationId: string): Promise<void> {
    const engine = this.active?.engine;
    if (!engine) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is off.' });
    const result = await engine.takeOver(conversationId);
    if (result === 'conflict') throw new WireError({ code: 'invalid_state', reason: 'taken_over_elsewhere', message: 'Another device took this conversation over first.' });
    if (result === 'offline') throw new WireError({ code: 'invalid_state', reason: 'sync_unreachable', message: 'The sync server cannot be reached, so this device cannot take the conversation over now.' });
  }

  /**
   * Runs an engine over `mirror` (the service does, over PouchDB; host tests do, over a simulated replicator) and
   * resolves once it has caught up with what the mirror holds. `detach` stops it.
   */
  async attach(mirror: Mirror, keys: SyncKeys, device: DeviceRef): Promise<SyncEngine> {
    this.active?.engine.stop();
    // Loaded here, not with the worker: nothing of sync costs a device where it is off.
    const [{ SyncEngine: Engine }, host] = await Promise.all([import('./sync-engine'), this.deps.engineHost()]);
    const engine = new Engine(mirror, keys, device, host);
    const active: { engine: SyncEngine; device: DeviceRef; started?: boolean } = { engine, device };
    this.active = active;
    await engine.start();
    active.started = true;
    this.deps.post({ type: 'sync-runners', runners: engine.remoteRunners() });
    return engine;
  }

  /** This device's new name, for what it stamps from now on and in the runner documents of what it runs. */
  async renamed(device: DeviceRef): Promise<void> {
    if (!this.active) return;
    this.active = { ...this.active, device };
    await this.active.engine.renameDevice(device);
  }

  async detach(): Promise<void> {
    const active = this.active;
    this.active = undefined;
    if (!active) return;
    await active.engine.flush().catch(() => undefined);
    active.engine.stop();
  }

  private load(): Promise<SyncService> {
    this.loading ??= import('./sync-service').then(({ SyncService: Service }) => {
      this.service = new Service(this.deps, this);
      return this.service;
    });
    return this.loading;
  }
}

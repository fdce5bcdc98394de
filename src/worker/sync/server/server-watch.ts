import type { SyncStatus } from '../../../schema/sync/sync';
import type { PouchMirror, RemoteAccess } from '../mirror/pouch-mirror';
import { inspectServer, setServerUpAgain } from './server-identity';
import type { KeyDocument } from '../documents/sync-crypto';

/** The longest wait between two looks at a server that cannot be reached or used. */
const MAX_LOOK_DELAY_MS = 30_000;

/** What the watch says and starts through the sync service. */
export interface WatchPort {
  /** Starts live replication of the mirror (its events go to the service). */
  replicate(mirror: PouchMirror): void;
  /** The status to show (the service adds the server, the user and when it last synced). */
  say(next: { state: 'syncing' | 'offline' } | { state: 'error'; reason: 'key_replaced' | 'database_missing' | 'not_a_database' | 'unauthorized' }): void;
  keyDocumentIs(state: SyncStatus['keyDocument']): void;
}

/**
 * Whether the server is still the one this device joined, looked at before replicating (at start, after a failed round,
 * when the network is back, when the key document changes, and now and then after a round), and acted on (README,
 * "Sync between your devices"). One per started mirror; `stop` ends it.
 */
export class ServerWatch {
  /** Whether the mirror replicates now (stopped while the server is not the one this device joined). */
  replicating = false;
  /** When the server was last looked at. */
  lookedAt = 0;
  private looking: Promise<void> | undefined;
  /** Asked for while a look was under way: another follows it (the server may have changed meanwhile). */
  private lookAgain = false;
  /** Replication rounds that failed since the last that ended Synced: a failing server is not replicated with at once again. */
  private failures = 0;
  private lookDelay = 1000;
  private lookTimer: ReturnType<typeof setTimeout> | undefined;
  private replicateTimer: ReturnType<typeof setTimeout> | undefined;
  /** The server was found without its data: everything this device holds is offered to it again before replicating. */
  private serverLost = false;
  /** This device set the server up again (said until sync restarts). */
  private restored = false;
  private stopped = false;

  constructor(
    private readonly access: RemoteAccess,
    /** The key document this device joined with (undefined: stored by an older build, nothing to compare). */
    private readonly keyDocument: KeyDocument | undefined,
    private readonly mirror: PouchMirror,
    private readonly port: WatchPort,
  ) {}

  /** Looks at the server (one look at a time; one asked for meanwhile follows) and acts on what it finds: see `look`. */
  lookAtServer(): Promise<void> {
    if (this.looking) {
      this.lookAgain = true;
      return this.looking;
    }
    this.looking = (async () => {
      do {
        this.lookAgain = false;
        await this.look().catch(() => this.lookLater());
      } while (this.lookAgain && !this.stopped);
    })().finally(() => (this.looking = undefined));
    return this.looking;
  }

  /**
   * The server was looked at a moment ago by the join that opened or made this key document ("Turn on sync"): replicated
   * with at once, not looked at again first (while that second look was under way, an initial upload's first writes
   * were left to the live replication instead of being sent as they were written).
   */
  joined(): void {
    this.lookedAt = Date.now();
    this.port.keyDocumentIs(undefined);
    this.replicateSoon();
  }

  /** A replication round failed (offline, a database gone, a server failing): stopped, and the server looked at first. */
  failed(): void {
    this.failures += 1;
    this.stopReplicating();
    void this.lookAtServer();
  }

  /** The network is back: looked at now, not after a backoff. */
  reconnect(): void {
    this.failures = 0;
    this.stopReplicating();
    void this.lookAtServer();
  }

  /** A round ended with nothing left to move. */
  synced(): void {
    this.failures = 0;
  }

  stop(): void {
    this.stopped = true;
    this.replicating = false;
    clearTimeout(this.lookTimer);
    clearTimeout(this.replicateTimer);
  }

  /**
   * The key document this device joined with: replicate (everything offered again first if the server was found
   * without its data). A database gone or emptied: set up again with this key. Another key document: said, nothing
   * replicated until the passphrase joins it. The key document gone from a database that holds data: said, never mended
   * silently ("Put this device's key back"). Unreachable: offline, looked at again a little later.
   */
  private async look(): Promise<void> {
    clearTimeout(this.lookTimer);
    this.lookedAt = Date.now();
    const finding = this.keyDocument ? await inspectServer(this.access, this.keyDocument) : { kind: 'same' as const };
    if (this.stopped) return;
    if (finding.kind === 'database_missing' || finding.kind === 'emptied') return this.setUpAgain();
    if (finding.kind === 'same' || finding.kind === 'key_missing') {
      this.lookDelay = 1000;
      this.port.keyDocumentIs(finding.kind === 'key_missing' ? 'missing' : this.restored ? 'restored' : undefined);
      if (this.serverLost) await this.uploadEverything();
      else if (!this.replicating) this.replicateSoon();
      return;
    }
    if (finding.kind === 'unreachable' && this.replicating) return;
    this.stopReplicating();
    this.port.keyDocumentIs(finding.kind === 'replaced' ? 'replaced' : undefined);
    if (finding.kind === 'replaced') return this.port.say({ state: 'error', reason: 'key_replaced' });
    this.port.say(finding.kind === 'unreachable' ? { state: 'offline' } : { state: 'error', reason: finding.kind === 'unauthorized' ? 'unauthorized' : 'not_a_database' });
    this.lookLater();
  }

  /** A server found without its data: the database made again with this device's key document, then looked at again. */
  private async setUpAgain(): Promise<void> {
    this.serverLost = true;
    this.stopReplicating();
    const result = await setServerUpAgain(this.access, this.keyDocument!);
    if (this.stopped) return;
    if (result === 'ok' || result === 'taken') {
      this.restored ||= result === 'ok';
      return this.look();
    }
    this.port.say(result === 'unreachable' ? { state: 'offline' } : { state: 'error', reason: 'database_missing' });
    this.lookLater();
  }

  /** Offers the server everything the mirror holds, whatever the checkpoints say; then replicates as usual. */
  private async uploadEverything(): Promise<void> {
    this.port.say({ state: 'syncing' });
    try {
      await this.mirror.uploadAll();
    } catch {
      this.lookLater();
      return;
    }
    if (this.stopped) return;
    this.serverLost = false;
    this.replicate();
  }

  private replicate(): void {
    this.replicating = true;
    this.port.replicate(this.mirror);
  }

  private stopReplicating(): void {
    this.replicating = false;
    clearTimeout(this.replicateTimer);
    this.mirror.stopReplication();
  }

  /** Replicates now, or after a wait that grows with the rounds that failed in a row (a server that keeps failing). */
  private replicateSoon(): void {
    clearTimeout(this.replicateTimer);
    const wait = this.failures > 1 ? Math.min(500 * 2 ** this.failures, MAX_LOOK_DELAY_MS) : 0;
    if (wait === 0) return this.replicate();
    this.replicateTimer = setTimeout(() => {
      if (!this.stopped && !this.replicating) this.replicate();
    }, wait);
  }

  private lookLater(): void {
    clearTimeout(this.lookTimer);
    if (this.stopped) return;
    this.lookTimer = setTimeout(() => void this.lookAtServer(), this.lookDelay);
    this.lookDelay = Math.min(this.lookDelay * 2, MAX_LOOK_DELAY_MS);
  }
}

import type { DeviceRef, RemoteRunners, Runner } from '../../../schema/sync/sync';
import type { Mirror } from '../mirror/mirror';

/** What the engine has learnt from the documents it read, kept on this device so a restart need not read them again. */
interface KnownState {
  runners: Runner[];
  foreign: string[];
  deleted: string[];
  /** Conversations whose record here was last written by this device as their runner (see ChangeReceiver.receiveRecord). */
  authored?: string[];
  /**
   * [conversation id, epoch, updatedAt] of the newest record of each conversation received from its runner; and of each
   * segment of messages, under its segment key (message-segments.ts), its newest message's `updatedAt`.
   */
  received?: Array<[string, number, number]>;
  /** Saved by a build that writes messages in segments, once the conversations this device runs have no message documents. */
  segmented?: boolean;
}

/**
 * Who runs each conversation, as this device knows it from the runner documents it read, and the rest of what it learnt
 * from the documents (which came from elsewhere, which were deleted); kept in the mirror's local store with its position.
 */
export class RunnerBook {
  readonly runners = new Map<string, Runner>();
  /** Conversations that came from another device (so a missing runner document does not make them this device's). */
  readonly foreign = new Set<string>();
  readonly deleted = new Set<string>();
  readonly authored = new Set<string>();
  /**
   * The newest conversation record (and segment of messages) taken from each conversation's runner, by runner epoch and
   * then `updatedAt` (one device writes within an epoch): an older one the server writes back is refused, never applied.
   */
  readonly received = new Map<string, { epoch: number; updatedAt: number }>();
  /**
   * The mirror holds no message documents (one per message, the build before segments) of what this device runs: true
   * for a new mirror, false for one that build kept until they are deleted (see retireMessageDocuments).
   */
  segmented = true;
  /** Something above changed since it was last saved. */
  changed = false;

  constructor(
    private readonly mirror: Mirror,
    /** This device: its name changes when the user renames it. */
    public device: DeviceRef,
  ) {}

  /** Who runs what, as known when this device last stopped; the position `follow` resumes after (undefined: the start). */
  async load(): Promise<string | number | undefined> {
    const known = (await this.mirror.getLocal('state')) as KnownState | undefined;
    const since = known ? ((await this.mirror.getLocal('since')) as string | number | undefined) : undefined;
    for (const runner of known?.runners ?? []) this.runners.set(runner.conversationId, runner);
    for (const id of known?.foreign ?? []) this.foreign.add(id);
    for (const id of known?.deleted ?? []) this.deleted.add(id);
    for (const id of known?.authored ?? []) this.authored.add(id);
    for (const [id, epoch, updatedAt] of known?.received ?? []) this.received.set(id, { epoch, updatedAt });
    this.segmented = known === undefined || known.segmented === true;
    return since;
  }

  async save(): Promise<void> {
    this.changed = false;
    const received = [...this.received].map(([id, { epoch, updatedAt }]): [string, number, number] => [id, epoch, updatedAt]);
    const state: KnownState = { runners: [...this.runners.values()], foreign: [...this.foreign], deleted: [...this.deleted], authored: [...this.authored], received, segmented: this.segmented };
    await this.mirror.setLocal('state', state);
  }

  /** The device that runs the conversation when it is not this one; undefined when this device decides. */
  runnerElsewhere(conversationId: string): DeviceRef | undefined {
    const runner = this.runners.get(conversationId);
    if (runner) return runner.device.id === this.device.id ? undefined : runner.device;
    return this.foreign.has(conversationId) ? { id: '', name: '' } : undefined;
  }

  remoteRunners(): RemoteRunners {
    const result: RemoteRunners = {};
    for (const [conversationId, runner] of this.runners) if (runner.device.id !== this.device.id) result[conversationId] = runner.device;
    for (const conversationId of this.foreign) if (!this.runners.has(conversationId)) result[conversationId] = { id: '', name: '' };
    return result;
  }

  /** Whether this device writes the conversation's records: it runs it, or it was never anyone else's. */
  runsHere(conversationId: string): boolean {
    return this.runnerElsewhere(conversationId) === undefined;
  }

  /** Whether a conversation record (or segment) from its runner is older than one already taken: the server wrote an old one back. */
  isOlderRecord(conversationId: string, epoch: number, updatedAt: number): boolean {
    const newest = this.received.get(conversationId);
    return newest !== undefined && (epoch < newest.epoch || (epoch === newest.epoch && updatedAt < newest.updatedAt));
  }

  tookRecord(conversationId: string, epoch: number, updatedAt: number): void {
    this.received.set(conversationId, { epoch, updatedAt });
    this.changed = true;
  }

  epochOf(conversationId: string): number {
    return this.runners.get(conversationId)?.epoch ?? 0;
  }
}

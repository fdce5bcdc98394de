import type { RecordChange } from '../../core/run/store';
import type { RecordDiff } from '../store/change-feed';
import { AttachmentSync } from './content/attachment-sync';
import { AwaitedProposals } from './documents/awaited-proposals';
import type { DeviceRef, Proposal, ProposedCommand, RemoteRunners, Runner, SyncPayload, SyncRefusals } from '../../schema/sync/sync';
import { ChangeReceiver } from './documents/change-receiver';
import { ProposalReceiver } from './documents/proposal-receiver';
import { retireMessageDocuments } from './documents/message-documents';
import { MessageSegments } from './documents/message-segments';
import type { EngineContext, SyncEngineHost } from './engine-context';
import type { EncryptedDocument, Mirror } from './mirror/mirror';
import { PUSH_CHUNK, PushQueue } from './documents/push-queue';
import { RefusalLog } from './documents/refusal-log';
import { RunnerBook } from './documents/runner-book';
import { SealedDocuments } from './documents/sealed-documents';
import { SettingsSync } from './content/settings-sync';
import { documentId, seal, type SyncKeys } from './documents/sync-crypto';
import { markPhase, markProposal } from './sync-measures';

/**
 * Sync of one device (docs/architecture.md, "Sync's authority rule"). The device whose worker runs a conversation is its only authority: only it
 * writes the conversation's records; other devices store what it wrote and send it *proposals* (answers, Allow, Deny,
 * messages, Stop), which it applies through its own compare-and-set and whose outcome comes back as its records. Who
 * runs a conversation is a runner document, changed only by a compare-and-set on the server ("Continue on this device").
 * Every document is sealed with the user's key; ids are HMACs. Local writes go out through a PushQueue; what the mirror
 * hands on comes in through a ChangeReceiver.
 */
export class SyncEngine {
  private readonly context: EngineContext;
  private readonly book: RunnerBook;
  private readonly sealed: SealedDocuments;
  private readonly pushQueue: PushQueue;
  private readonly receiver: ChangeReceiver;
  private readonly proposals: ProposalReceiver;
  private readonly awaited: AwaitedProposals;
  private readonly settings: SettingsSync;
  private following: { cancel(): void } | undefined;
  private readonly refusals: RefusalLog;
  private refusalListener: (() => void) | undefined;
  private keyDocumentListener: (() => void) | undefined;
  private caughtUp = false;

  constructor(
    private readonly mirror: Mirror,
    private readonly keys: SyncKeys,
    device: DeviceRef,
    private readonly host: SyncEngineHost,
  ) {
    this.book = new RunnerBook(mirror, device);
    this.refusals = new RefusalLog(mirror, host.now, () => this.refusalListener?.());
    this.sealed = new SealedDocuments(mirror, keys, () => this.refusals.note('unreadable'));
    const attachments = new AttachmentSync({ mirror, keys, host, sealed: this.sealed, isDeleted: (conversationId) => this.book.deleted.has(conversationId), refused: (kind) => this.refusals.note(kind) });
    const segments = new MessageSegments({ mirror, keys, sealed: this.sealed });
    this.context = { mirror, keys, host, book: this.book, sealed: this.sealed, segments, attachments, refused: (kind) => this.refusals.note(kind), keyDocumentChanged: () => this.keyDocumentListener?.(), stopped: false };
    this.pushQueue = new PushQueue(this.context);
    this.proposals = new ProposalReceiver(this.context);
    this.receiver = new ChangeReceiver(this.context, this.pushQueue, this.proposals);
    this.awaited = new AwaitedProposals(this.context, this.proposals);
    this.settings = new SettingsSync(this.context);
  }

  /** Proposals refused since this engine started: replayed, for another request, or from an outdated device. */
  get refusedProposals(): number {
    return this.proposals.refusedProposals;
  }

  /** What was refused from the server so far (undefined: nothing), and a listener told when that changes. */
  refused(): SyncRefusals | undefined {
    return this.refusals.snapshot();
  }

  onRefusal(listener: () => void): void {
    this.refusalListener = listener;
  }

  /** Whether local writes are still on their way to the mirror ("Synced" waits for them: a first upload is gradual). */
  get writesPending(): boolean {
    return !this.pushQueue.idle;
  }

  /** Told when the local writes have all reached the mirror; `wrote`: the last push put something there. */
  onWritesIdle(listener: (wrote: boolean) => void): void {
    this.pushQueue.onIdle = listener;
  }

  /** Told when the key document's revision reaches the mirror (it changed on the server, or this start read it). */
  onKeyDocumentChange(listener: () => void): void {
    this.keyDocumentListener = listener;
  }

  clearRefusals(): void {
    this.refusals.clear();
  }

  /** Follows the mirror from where it stopped; once caught up, writes what this device runs that the mirror lacks. */
  async start(): Promise<void> {
    // Who runs what, as known when this device last stopped: `follow` resumes after the documents it was learnt from.
    const since = await this.book.load();
    await this.refusals.load();
    await this.settings.load();
    let resolveCaughtUp!: () => void;
    const caughtUp = new Promise<void>((resolve) => (resolveCaughtUp = resolve));
    this.following = this.mirror.follow(since, async (changes) => {
      // Settings first: the receiver keeps the position once it has applied the rest.
      await this.settings.receive(changes);
      await this.receiver.receive(changes);
      if (!this.caughtUp) {
        this.caughtUp = true;
        resolveCaughtUp();
      }
    });
    await caughtUp;
    markPhase('caught-up');
    await this.settings.start();
    await this.reconcile();
  }

  stop(): void {
    this.context.stopped = true;
    this.following?.cancel();
    this.pushQueue.stop();
    this.settings.stop();
    this.context.attachments.stop();
    this.awaited.stop();
  }

  /** Waits for the local writes noted so far to be in the mirror. */
  async flush(): Promise<void> {
    await Promise.all([this.pushQueue.flush(), this.settings.flush()]);
  }

  /** This device's settings were written: what of them syncs goes to the mirror shortly. */
  settingsChanged(): void {
    this.settings.noteLocalChange();
  }

  /** Stores a file from the chunks the mirror holds, if it is not here yet: true when it is here now (see SyncGate). */
  fetchAttachment(attachmentId: string, waitFor?: AbortSignal): Promise<boolean> {
    return waitFor ? this.context.attachments.arrival(attachmentId, waitFor) : this.context.attachments.fetch(attachmentId);
  }

  /** The device's new name, written into the runner documents of what it runs so other devices show it. */
  async renameDevice(device: DeviceRef): Promise<void> {
    this.book.device = device;
    for (const runner of [...this.book.runners.values()]) {
      if (runner.device.id !== device.id) continue;
      const renamed: Runner = { ...runner, device };
      this.book.runners.set(runner.conversationId, renamed);
      await this.book.save();
      await this.sealed.write(await documentId(this.keys, 'runner', runner.conversationId), { kind: 'runner', runner: renamed });
    }
  }

  /** The device that runs the conversation when it is not this one; undefined when this device decides. */
  runnerElsewhere(conversationId: string): DeviceRef | undefined {
    return this.book.runnerElsewhere(conversationId);
  }

  remoteRunners(): RemoteRunners {
    return this.book.remoteRunners();
  }

  /** A committed local write: sealed and written to the mirror shortly, if this device runs the conversation. */
  noteChange(change: RecordDiff): void {
    if (change.conversation) {
      // The records as committed, sealed as noted (a copy: the writer's objects may change after).
      this.pushQueue.markDirty({ kind: 'conversation', id: change.conversation.id, conversation: structuredClone(change.conversation) });
      this.awaited.note(change.conversation);
    }
    let files = false;
    for (const message of change.messages ?? []) {
      this.pushQueue.markDirty({ kind: 'message', id: message.id, conversationId: message.conversationId, message: structuredClone(message) });
      if (!message.attachments?.length || !this.book.runsHere(message.conversationId) || this.context.stopped) continue;
      files = true;
      this.context.attachments.prepare(message);
    }
    // A deleted version noted with an earlier write, its push not run yet, is read then (and found gone), not sealed.
    if (change.removedMessages?.length) this.pushQueue.versionsDeleted(change.removedMessages);
    // A message with files is pushed now, not after the gathering delay, and its files' chunks (sealed meanwhile) are
    // written after its segment (push-queue.ts): the segment reaches the server, and the other device shows the message,
    // before the chunks fill this device's mirror (a rewritten segment is sent once the mirror has it) and the other's pull.
    if (files) void this.pushQueue.flush();
  }

  /** Another tab's worker committed this change (and pushes it): what this one noted of its conversations is read again. */
  noteElsewhere(change: RecordChange): void {
    const ids = new Set((change.messages ?? []).map((message) => message.conversationId));
    if (change.conversation) ids.add(change.conversation.id);
    if (ids.size > 0) this.pushQueue.writtenElsewhere([...ids]);
  }

  noteDeleted(conversationId: string): void {
    this.pushQueue.markDirty({ kind: 'deleted', id: conversationId });
  }

  /** A conversation made here (created, imported): this device runs it. */
  async claim(conversationId: string): Promise<void> {
    if (this.book.runners.has(conversationId) || this.book.foreign.has(conversationId)) return;
    const runner: Runner = { conversationId, device: this.book.device, epoch: 0, since: this.host.now() };
    this.book.runners.set(conversationId, runner);
    await this.book.save();
    await this.sealed.write(await documentId(this.keys, 'runner', conversationId), { kind: 'runner', runner });
  }

  /**
   * Writes a proposal for the device that runs the conversation: the command itself, as pinned (see command-handler.ts).
   * Its id follows from the command and this device, so proposing the same thing again rewrites the one document.
   */
  async propose(conversationId: string, command: ProposedCommand): Promise<DeviceRef> {
    const runner = this.runnerElsewhere(conversationId);
    if (!runner) throw new Error('propose: this device runs the conversation');
    const id = await documentId(this.keys, 'proposal', conversationId, JSON.stringify(command), this.book.device.id);
    const proposal: Proposal = { id, conversationId, from: this.book.device, command, createdAt: this.host.now(), nonce: newNonce() };
    markProposal('proposing');
    await this.sealed.write(id, { kind: 'proposal', proposal });
    markProposal('proposed');
    return runner;
  }

  /**
   * "Continue on this device": a compare-and-set on the server's runner document (a `PUT` with the `_rev` read there).
   * 'conflict' when another device wrote it meanwhile; 'offline' when the server cannot be reached.
   */
  async takeOver(conversationId: string): Promise<'ok' | 'conflict' | 'offline'> {
    const id = await documentId(this.keys, 'runner', conversationId);
    let current: EncryptedDocument | undefined;
    try {
      current = await this.mirror.remoteGet(id);
    } catch {
      return 'offline';
    }
    const previous = current?.ct ? await this.sealed.read(current) : undefined;
    const epoch = previous?.kind === 'runner' ? previous.runner.epoch + 1 : 1;
    const seenTitle = (await this.host.getConversation(conversationId))?.title;
    const runner: Runner = { conversationId, device: this.book.device, epoch, since: this.host.now(), ...(seenTitle !== undefined ? { seenTitle: seenTitle.slice(0, 1000) } : {}) };
    const sealed = await seal(this.keys, JSON.stringify({ kind: 'runner', runner } satisfies SyncPayload));
    let result: 'ok' | 'conflict';
    try {
      result = await this.mirror.remotePut({ _id: id, ...(current?._rev ? { _rev: current._rev } : {}), e: 1, ...sealed });
    } catch {
      return 'offline';
    }
    if (result === 'conflict') return 'conflict';
    this.book.runners.set(conversationId, runner);
    await this.book.save();
    this.host.runnersChanged(this.remoteRunners());
    await this.host.takenOver(conversationId);
    await this.pushConversation(conversationId);
    return 'ok';
  }

  /** Everything this device runs, written to the mirror where it differs (after an enable, or writes a closed tab missed). */
  private async reconcile(): Promise<void> {
    const mine = (await this.host.listConversations()).filter((conversation) => this.book.runsHere(conversation.id));
    // Claimed together: one state write, and the runner documents in bulk writes (as `claim` does for one).
    const claims: Array<{ id: string; payload: SyncPayload }> = [];
    for (const { id: conversationId } of mine) {
      if (this.book.runners.has(conversationId) || this.book.foreign.has(conversationId)) continue;
      const runner: Runner = { conversationId, device: this.book.device, epoch: 0, since: this.host.now() };
      this.book.runners.set(conversationId, runner);
      claims.push({ id: await documentId(this.keys, 'runner', conversationId), payload: { kind: 'runner', runner } });
    }
    markPhase('listed');
    if (claims.length > 0) await this.book.save();
    for (let start = 0; start < claims.length; start += PUSH_CHUNK) {
      if (this.context.stopped) return;
      const error = (await this.sealed.writeMany(claims.slice(start, start + PUSH_CHUNK))).find(Boolean);
      if (error) throw error;
    }
    markPhase('claimed');
    for (const conversation of mine) {
      if (this.context.stopped) return;
      this.awaited.note(conversation);
      this.pushQueue.markDirty({ kind: 'conversation', id: conversation.id });
      this.pushQueue.markDirty({ kind: 'messages', id: conversation.id });
    }
    const failures = this.pushQueue.pushFailures;
    await this.flush();
    // A mirror the build before segments kept: once what this device runs is in segments, its message documents go.
    if (this.book.segmented || this.context.stopped || !this.pushQueue.idle || this.pushQueue.pushFailures !== failures) return;
    try {
      await retireMessageDocuments(this.context, mine.filter(({ id }) => this.book.runsHere(id)).map(({ id }) => id));
    } catch {
      return; // tried again at the next start: they cost space, never correctness
    }
    this.book.segmented = true;
    await this.book.save();
  }

  private async pushConversation(conversationId: string): Promise<void> {
    this.pushQueue.markDirty({ kind: 'conversation', id: conversationId });
    this.pushQueue.markDirty({ kind: 'messages', id: conversationId });
    await this.flush();
  }
}

/** 128 random bits in hex: a proposal's nonce. */
function newNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

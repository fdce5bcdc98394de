import type { RecordChange } from '../../core/store';
import type { Conversation, Message } from '../../schema/records';
import { SyncPayload, type DeviceRef, type Proposal, type ProposalAction, type RemoteRunners, type Runner } from '../../schema/sync';
import type { EncryptedDocument, Mirror, MirrorChange } from './mirror';
import { documentId, KEY_DOC_ID, open, seal, type SyncKeys } from './sync-crypto';

/** What the engine needs of the device it runs on: its records, and what to do with what other devices sent. */
export interface SyncEngineHost {
  getConversation(conversationId: string): Promise<Conversation | undefined>;
  getMessage(messageId: string): Promise<Message | undefined>;
  listConversations(): Promise<Conversation[]>;
  /** Every message of a conversation, every version. */
  allMessages(conversationId: string): Promise<Message[]>;
  /** Stores records another device wrote (a conversation this device does not run), telling the UI as a write does. */
  applyRemote(change: RecordChange): Promise<void>;
  deleteLocal(conversationId: string): Promise<void>;
  /** A read-modify-write of a conversation this device runs, in one transaction, told as a write is (so it syncs). */
  updateConversation(conversationId: string, update: (conversation: Conversation) => Conversation): Promise<void>;
  /** Applies another device's proposal to a conversation this device runs, through the same compare-and-set as here. */
  applyProposal(proposal: Proposal): Promise<{ status: 'applied' } | { status: 'refused'; reason: string }>;
  /** Another device took over a conversation this device ran: stop running it here. */
  runnerLost(conversationId: string): void;
  /** This device took a conversation over: repair what the other device left running (it never runs here by itself). */
  takenOver(conversationId: string): Promise<void>;
  runnersChanged(runners: RemoteRunners): void;
  now(): number;
}

/** What the engine has learnt from the documents it read, kept on this device so a restart need not read them again. */
interface KnownState {
  runners: Runner[];
  foreign: string[];
  deleted: string[];
  /** Conversations whose record here was last written by this device as their runner (see `receiveRecord`). */
  authored?: string[];
}

type Dirty = { kind: 'conversation'; id: string } | { kind: 'message'; id: string } | { kind: 'deleted'; id: string };

/** How long local writes gather before they are sealed and written to the mirror (a streaming reply writes often). */
const PUSH_DELAY_MS = 250;
/** How many documents are sealed together and written to the mirror in one bulk write. */
const PUSH_CHUNK = 100;
/** How long a write that failed to reach the mirror waits before it is tried again. */
const PUSH_RETRY_MS = 2000;
/** The most of other devices' messages stored in one IndexedDB transaction. */
const MESSAGES_PER_TRANSACTION = 200;
/** Performance measures in the worker (read by bench/sync.mjs): one per batch of local writes sealed into the mirror, and
 * one per batch of mirror changes applied here; their `detail` says how many documents and sealed bytes. */
export const PUSH_MEASURE = 'parley:sync.push';
export const RECEIVE_MEASURE = 'parley:sync.receive';

/** Whether a title differs from the one the conversation had when its runner took it over (unknown: it may). */
function renamedMeanwhile(title: string, runner: Runner | undefined): boolean {
  return runner?.seenTitle === undefined || runner.seenTitle !== title;
}

/** Whether a conversation record holds `title`, as its title or a kept one. */
function holdsTitle(conversation: Conversation, title: string): boolean {
  return conversation.title === title || (conversation.otherTitles ?? []).some((entry) => entry.title === title);
}

const measureCounts = new Map<string, number>();
/** A performance measure, the oldest dropped every 1,000 so a long-running worker's timeline does not grow without end. */
function measure(name: string, start: number, detail: Record<string, number>): void {
  const count = (measureCounts.get(name) ?? 0) + 1;
  measureCounts.set(name, count % 1000);
  if (count === 1000) performance.clearMeasures(name);
  performance.measure(name, { start, detail });
}

/**
 * Sync of one device (issue 19, DESIGN 7b). The device whose worker runs a conversation is its only authority: only it
 * writes the conversation's records; other devices store what it wrote and send it *proposals* (answers, Allow, Deny,
 * messages, Stop), which it applies through its own compare-and-set and whose outcome comes back as its records. Who
 * runs a conversation is a runner document, changed only by a compare-and-set on the server ("Continue on this device").
 * Every document is sealed with the user's key; ids are HMACs.
 */
export class SyncEngine {
  private readonly runners = new Map<string, Runner>();
  /** Conversations that came from another device (so a missing runner document does not make them this device's). */
  private readonly foreign = new Set<string>();
  private readonly deleted = new Set<string>();
  private readonly authored = new Set<string>();
  private readonly dirty = new Map<string, Dirty>();
  private readonly handledProposals = new Set<string>();
  private pushTimer: ReturnType<typeof setTimeout> | undefined;
  private pushing: Promise<void> = Promise.resolve();
  private following: { cancel(): void } | undefined;
  private caughtUp = false;
  private stopped = false;
  /** Documents that could not be opened (another key, altered): counted, never applied. */
  unreadable = 0;
  /** Documents sealed and written to the mirror by this engine, and their ciphertext's size (base64 characters). */
  sealedDocuments = 0;
  sealedBytes = 0;
  /** Writes to the mirror that failed and were noted again for a retry. */
  pushFailures = 0;
  private stateChanged = false;

  constructor(
    private readonly mirror: Mirror,
    private readonly keys: SyncKeys,
    private device: DeviceRef,
    private readonly host: SyncEngineHost,
  ) {}

  /** Follows the mirror from where it stopped; once caught up, writes what this device runs that the mirror lacks. */
  async start(): Promise<void> {
    // Who runs what, as known when this device last stopped: `follow` resumes after the documents it was learnt from.
    const known = (await this.mirror.getLocal('state')) as KnownState | undefined;
    const since = known ? ((await this.mirror.getLocal('since')) as string | number | undefined) : undefined;
    for (const runner of known?.runners ?? []) this.runners.set(runner.conversationId, runner);
    for (const id of known?.foreign ?? []) this.foreign.add(id);
    for (const id of known?.deleted ?? []) this.deleted.add(id);
    for (const id of known?.authored ?? []) this.authored.add(id);
    let resolveCaughtUp!: () => void;
    const caughtUp = new Promise<void>((resolve) => (resolveCaughtUp = resolve));
    this.following = this.mirror.follow(since, async (changes) => {
      await this.receive(changes);
      if (!this.caughtUp) {
        this.caughtUp = true;
        resolveCaughtUp();
      }
    });
    await caughtUp;
    await this.reconcile();
  }

  stop(): void {
    this.stopped = true;
    this.following?.cancel();
    if (this.pushTimer) clearTimeout(this.pushTimer);
  }

  /** Waits for the local writes noted so far to be in the mirror. */
  async flush(): Promise<void> {
    if (this.pushTimer) {
      clearTimeout(this.pushTimer);
      this.pushTimer = undefined;
      this.schedulePush(0);
    }
    await this.pushing;
  }

  /** The device's new name, written into the runner documents of what it runs so other devices show it. */
  async renameDevice(device: DeviceRef): Promise<void> {
    this.device = device;
    for (const runner of [...this.runners.values()]) {
      if (runner.device.id !== device.id) continue;
      const renamed: Runner = { ...runner, device };
      this.runners.set(runner.conversationId, renamed);
      await this.saveState();
      await this.write(await documentId(this.keys, 'runner', runner.conversationId), { kind: 'runner', runner: renamed });
    }
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

  /** A committed local write: sealed and written to the mirror shortly, if this device runs the conversation. */
  noteChange(change: RecordChange): void {
    if (change.conversation) this.markDirty({ kind: 'conversation', id: change.conversation.id });
    for (const message of change.messages ?? []) this.markDirty({ kind: 'message', id: message.id });
  }

  noteDeleted(conversationId: string): void {
    this.markDirty({ kind: 'deleted', id: conversationId });
  }

  /** A conversation made here (created, imported): this device runs it. */
  async claim(conversationId: string): Promise<void> {
    if (this.runners.has(conversationId) || this.foreign.has(conversationId)) return;
    const runner: Runner = { conversationId, device: this.device, epoch: 0, since: this.host.now() };
    this.runners.set(conversationId, runner);
    await this.saveState();
    await this.write(await documentId(this.keys, 'runner', conversationId), { kind: 'runner', runner });
  }

  /** Writes a proposal for the device that runs the conversation. One per request (or message) and device. */
  async propose(conversationId: string, key: string, action: ProposalAction): Promise<DeviceRef> {
    const runner = this.runnerElsewhere(conversationId);
    if (!runner) throw new Error('propose: this device runs the conversation');
    const id = await documentId(this.keys, 'proposal', conversationId, key, this.device.id);
    const proposal: Proposal = { id, conversationId, from: this.device, action, createdAt: this.host.now() };
    await this.write(id, { kind: 'proposal', proposal });
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
    const previous = current?.ct ? await this.readPayload(current) : undefined;
    const epoch = previous?.kind === 'runner' ? previous.runner.epoch + 1 : 1;
    const seenTitle = (await this.host.getConversation(conversationId))?.title;
    const runner: Runner = { conversationId, device: this.device, epoch, since: this.host.now(), ...(seenTitle !== undefined ? { seenTitle: seenTitle.slice(0, 1000) } : {}) };
    const sealed = await seal(this.keys, JSON.stringify({ kind: 'runner', runner } satisfies SyncPayload));
    let result: 'ok' | 'conflict';
    try {
      result = await this.mirror.remotePut({ _id: id, ...(current?._rev ? { _rev: current._rev } : {}), e: 1, ...sealed });
    } catch {
      return 'offline';
    }
    if (result === 'conflict') return 'conflict';
    this.runners.set(conversationId, runner);
    await this.saveState();
    this.host.runnersChanged(this.remoteRunners());
    await this.host.takenOver(conversationId);
    await this.pushConversation(conversationId);
    return 'ok';
  }

  private async saveState(): Promise<void> {
    this.stateChanged = false;
    const state: KnownState = { runners: [...this.runners.values()], foreign: [...this.foreign], deleted: [...this.deleted], authored: [...this.authored] };
    await this.mirror.setLocal('state', state);
  }

  private markDirty(entry: Dirty): void {
    if (this.stopped) return;
    this.dirty.set(`${entry.kind}:${entry.id}`, entry);
    this.schedulePush(PUSH_DELAY_MS);
  }

  private schedulePush(delay: number): void {
    if (this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      const batch = [...this.dirty.values()];
      this.dirty.clear();
      this.pushing = this.pushing.then(() => this.push(batch)).catch(() => undefined);
    }, delay);
  }

  private async push(batch: Dirty[]): Promise<void> {
    const started = performance.now();
    const bytesBefore = this.sealedBytes;
    const documentsBefore = this.sealedDocuments;
    const failuresBefore = this.pushFailures;
    try {
      await this.pushEntries(batch);
    } finally {
      measure(PUSH_MEASURE, started, { records: batch.length, documents: this.sealedDocuments - documentsBefore, bytes: this.sealedBytes - bytesBefore, failures: this.pushFailures - failuresBefore });
    }
  }

  /**
   * Seals the entries into the mirror, `PUSH_CHUNK` at a time: their records read, sealed concurrently and written with
   * one bulk write per chunk (one at a time, an initial upload of 100,000 messages took about an hour). One that fails
   * (the mirror's IndexedDB refusing a write, a conflict that kept coming back) is not dropped: it is noted again and
   * retried a little later, with whatever was noted meanwhile; the rest of its chunk is written.
   */
  private async pushEntries(batch: Dirty[]): Promise<void> {
    let failed = 0;
    const retry = (entry: Dirty) => {
      failed += 1;
      if (entry.kind === 'deleted') this.deleted.delete(entry.id);
      if (!this.dirty.has(`${entry.kind}:${entry.id}`)) this.dirty.set(`${entry.kind}:${entry.id}`, entry);
    };
    for (let start = 0; start < batch.length && !this.stopped; start += PUSH_CHUNK) {
      const chunk = batch.slice(start, start + PUSH_CHUNK);
      const writes: Array<{ entry: Dirty; id: string; payload: SyncPayload }> = [];
      try {
        const prepared = await Promise.all(chunk.map((entry) => this.payloadOf(entry).then((write) => ({ entry, write }), () => ({ entry, write: null }))));
        for (const { entry, write } of prepared) {
          if (write === null) retry(entry);
          else if (write) writes.push({ entry, ...write });
        }
        if (this.stateChanged) await this.saveState();
      } catch {
        for (const { entry } of writes) retry(entry);
        continue;
      }
      if (this.stopped) return;
      const errors = await this.writeMany(writes).catch(() => writes.map(() => new Error('write failed')));
      errors.forEach((error, index) => error && retry(writes[index]!.entry));
    }
    this.pushFailures += failed;
    if (failed > 0 && !this.stopped) this.schedulePush(PUSH_RETRY_MS);
  }

  /** What an entry writes to the mirror (undefined: nothing). Its bookkeeping is noted for one `saveState` per chunk. */
  private async payloadOf(entry: Dirty): Promise<{ id: string; payload: SyncPayload } | undefined> {
    if (entry.kind === 'deleted') {
      if (this.deleted.has(entry.id)) return undefined;
      this.deleted.add(entry.id);
      this.stateChanged = true;
      return { id: await documentId(this.keys, 'conversation', entry.id), payload: { kind: 'conversation-deleted', conversationId: entry.id, writer: this.device.id, at: this.host.now() } };
    }
    if (entry.kind === 'conversation') {
      const conversation = await this.host.getConversation(entry.id);
      if (!conversation || !this.runsHere(conversation.id)) return undefined;
      if (!this.authored.has(conversation.id)) {
        this.authored.add(conversation.id);
        this.stateChanged = true;
      }
      return { id: await documentId(this.keys, 'conversation', conversation.id), payload: { kind: 'conversation', conversation, writer: this.device.id, epoch: this.epochOf(conversation.id) } };
    }
    const message = await this.host.getMessage(entry.id);
    if (!message || !this.runsHere(message.conversationId)) return undefined;
    return { id: await documentId(this.keys, 'message', message.id), payload: { kind: 'message', message, writer: this.device.id, epoch: this.epochOf(message.conversationId) } };
  }

  /** Whether this device writes the conversation's records: it runs it, or it was never anyone else's. */
  private runsHere(conversationId: string): boolean {
    return this.runnerElsewhere(conversationId) === undefined;
  }

  private epochOf(conversationId: string): number {
    return this.runners.get(conversationId)?.epoch ?? 0;
  }

  /** Everything this device runs, written to the mirror where it differs (after an enable, or writes a closed tab missed). */
  private async reconcile(): Promise<void> {
    const mine = (await this.host.listConversations()).filter((conversation) => this.runsHere(conversation.id));
    // Claimed together: one state write, and the runner documents in bulk writes (as `claim` does for one).
    const claims: Array<{ id: string; payload: SyncPayload }> = [];
    for (const { id: conversationId } of mine) {
      if (this.runners.has(conversationId) || this.foreign.has(conversationId)) continue;
      const runner: Runner = { conversationId, device: this.device, epoch: 0, since: this.host.now() };
      this.runners.set(conversationId, runner);
      claims.push({ id: await documentId(this.keys, 'runner', conversationId), payload: { kind: 'runner', runner } });
    }
    if (claims.length > 0) await this.saveState();
    for (let start = 0; start < claims.length; start += PUSH_CHUNK) {
      if (this.stopped) return;
      const error = (await this.writeMany(claims.slice(start, start + PUSH_CHUNK))).find(Boolean);
      if (error) throw error;
    }
    for (const conversation of mine) {
      if (this.stopped) return;
      this.markDirty({ kind: 'conversation', id: conversation.id });
      for (const message of await this.host.allMessages(conversation.id)) this.markDirty({ kind: 'message', id: message.id });
    }
    await this.flush();
  }

  private async pushConversation(conversationId: string): Promise<void> {
    this.markDirty({ kind: 'conversation', id: conversationId });
    for (const message of await this.host.allMessages(conversationId)) this.markDirty({ kind: 'message', id: message.id });
    await this.flush();
  }

  /** Seals and writes a payload, unless the mirror already holds exactly it. */
  private async write(id: string, payload: SyncPayload): Promise<void> {
    const [error] = await this.writeMany([{ id, payload }]);
    if (error) throw error;
  }

  /**
   * Seals payloads (concurrently) and writes them with one bulk write, each unless the mirror already holds exactly it.
   * What each came to, in order: undefined when written (or already there), else its error. Of two writes to one
   * document, the later is written (as it would be, written one after the other).
   */
  private async writeMany(writes: ReadonlyArray<{ id: string; payload: SyncPayload }>): Promise<Array<Error | undefined>> {
    const last = new Map<string, number>();
    writes.forEach((write, index) => last.set(write.id, index));
    const unique = [...last.values()];
    const existing = await this.mirror.getMany(unique.map((index) => writes[index]!.id));
    const sealed = await Promise.all(
      unique.map(async (index, position) => {
        const text = JSON.stringify(writes[index]!.payload);
        const current = existing[position];
        if (current?.ct && current.iv && (await open(this.keys, { iv: current.iv, ct: current.ct }).catch(() => undefined)) === text) return undefined;
        const body = await seal(this.keys, text);
        return { index, document: { _id: writes[index]!.id, ...(current?._rev ? { _rev: current._rev } : {}), e: 1 as const, ...body } };
      }),
    );
    const toWrite = sealed.filter((entry) => entry !== undefined);
    const results: Array<Error | undefined> = writes.map(() => undefined);
    if (toWrite.length === 0) return results;
    const errors = await this.mirror.putMany(toWrite.map((entry) => entry.document));
    toWrite.forEach(({ index, document }, position) => {
      const error = errors[position];
      if (error) {
        results[index] = error;
        return;
      }
      this.sealedDocuments += 1;
      this.sealedBytes += (document.ct?.length ?? 0) + (document.iv?.length ?? 0);
    });
    return results;
  }

  private async readPayload(document: EncryptedDocument): Promise<SyncPayload | undefined> {
    if (!document.ct || !document.iv) return undefined;
    try {
      const parsed = SyncPayload.safeParse(JSON.parse(await open(this.keys, { iv: document.iv, ct: document.ct })));
      if (parsed.success) return parsed.data;
    } catch {
      // another key, or altered: below
    }
    this.unreadable += 1;
    return undefined;
  }

  /** What the mirror received (or this device wrote), applied in order; the position is kept once applied. */
  private async receive(changes: MirrorChange[]): Promise<void> {
    const started = performance.now();
    try {
      await this.receiveChanges(changes);
    } finally {
      if (changes.length > 0) measure(RECEIVE_MEASURE, started, { documents: changes.length });
    }
  }

  private async receiveChanges(changes: MirrorChange[]): Promise<void> {
    let runnersMoved = false;
    // Other devices' messages are stored together, in one transaction per run of them (an initial sync is mostly
    // messages); anything else is applied in order after them.
    let messages: Message[] = [];
    const storeMessages = async () => {
      if (messages.length === 0) return;
      const batch = messages;
      messages = [];
      await this.host.applyRemote({ messages: batch });
    };
    for (const { document } of changes) {
      if (this.stopped) return;
      if (document._id === KEY_DOC_ID || document._deleted) continue;
      const payload = await this.readPayload(document);
      if (!payload) continue;
      if (payload.kind !== 'message') await storeMessages();
      if (payload.kind === 'runner') runnersMoved = this.receiveRunner(payload.runner) || runnersMoved;
      else if (payload.kind === 'proposal') await this.receiveProposal(payload.proposal, document._id);
      else if (payload.kind === 'conversation-deleted') await this.receiveDeletion(payload.conversationId, payload.writer);
      else {
        const change = await this.receiveRecord(payload);
        if (change?.messages) messages.push(...change.messages);
        else if (change) await this.host.applyRemote(change);
        if (messages.length >= MESSAGES_PER_TRANSACTION) await storeMessages();
      }
    }
    if (this.stopped) return;
    await storeMessages();
    const last = changes.at(-1);
    if (last) {
      // The state first: a crash between the two writes only makes the next start read some documents again.
      if (this.stateChanged) await this.saveState();
      await this.mirror.setLocal('since', last.seq);
    }
    if (runnersMoved) this.host.runnersChanged(this.remoteRunners());
  }

  /** A runner document: the highest epoch wins (the server's compare-and-set made it); ties go to the smaller id. */
  private receiveRunner(runner: Runner): boolean {
    const current = this.runners.get(runner.conversationId);
    if (current && (current.epoch > runner.epoch || (current.epoch === runner.epoch && current.device.id <= runner.device.id))) {
      if (current.device.id === runner.device.id && current.device.name !== runner.device.name) {
        this.runners.set(runner.conversationId, runner);
        this.stateChanged = true;
      }
      return current.device.name !== runner.device.name;
    }
    this.runners.set(runner.conversationId, runner);
    this.stateChanged = true;
    if (runner.device.id !== this.device.id) this.foreign.add(runner.conversationId);
    if (current?.device.id === this.device.id && runner.device.id !== this.device.id) this.host.runnerLost(runner.conversationId);
    return true;
  }

  /**
   * A conversation's or message's record another device wrote. Of two versions, the one written under the higher runner
   * epoch wins on every device (the runner's: the server's compare-and-set chose it), whichever revision CouchDB picked:
   * the runner writes its own over a foreign one it sees, and the others ignore an earlier epoch's. A title that loses
   * is not dropped: it is kept in the winner's `otherTitles`.
   */
  private async receiveRecord(payload: Extract<SyncPayload, { kind: 'conversation' | 'message' }>): Promise<RecordChange | undefined> {
    if (payload.writer === this.device.id) return; // this device's own write, back from the mirror
    const conversationId = payload.kind === 'conversation' ? payload.conversation.id : payload.message.conversationId;
    if (this.deleted.has(conversationId)) return;
    const runner = this.runners.get(conversationId);
    // This device runs it: its own records are the truth. A foreign one is an earlier runner's late write (made before
    // it heard it lost): written over again here, with the title it gave kept.
    if (runner?.device.id === this.device.id) {
      if (payload.kind === 'message') this.markDirty({ kind: 'message', id: payload.message.id });
      else await this.keepOtherTitles(payload.conversation, payload.writer);
      return;
    }
    if (!runner && !this.foreign.has(conversationId) && (await this.host.getConversation(conversationId))) return;
    if (runner && payload.epoch < runner.epoch) return; // superseded: the runner writes over it
    const mine = payload.kind === 'conversation' && this.authored.has(conversationId) ? await this.host.getConversation(conversationId) : undefined;
    if (mine && payload.kind === 'conversation' && renamedMeanwhile(mine.title, runner) && !holdsTitle(payload.conversation, mine.title)) {
      // This device ran it and renamed it before it heard of the take-over: its record goes to the runner again (under an
      // earlier epoch, which the others ignore and whose title the runner keeps) before the runner's replaces it here.
      await this.write(await documentId(this.keys, 'conversation', conversationId), { kind: 'conversation', conversation: mine, writer: this.device.id, epoch: Math.max(0, (runner?.epoch ?? payload.epoch) - 1) });
      return;
    }
    if (!this.foreign.has(conversationId)) {
      this.foreign.add(conversationId);
      this.stateChanged = true;
    }
    if (payload.kind === 'conversation' && this.authored.delete(conversationId)) this.stateChanged = true;
    return payload.kind === 'conversation' ? { conversation: payload.conversation } : { messages: [payload.message] };
  }

  /** On the runner: another device's version of its conversation. Its title, when it differs, is kept; ours is written again. */
  private async keepOtherTitles(theirs: Conversation, writer: string): Promise<void> {
    const offered: NonNullable<Conversation['otherTitles']> = [...(theirs.otherTitles ?? [])];
    if (renamedMeanwhile(theirs.title, this.runners.get(theirs.id))) offered.push({ title: theirs.title, at: theirs.updatedAt, device: writer });
    const mine = await this.host.getConversation(theirs.id);
    if (!mine) return;
    if (offered.every((entry) => holdsTitle(mine, entry.title))) {
      this.markDirty({ kind: 'conversation', id: mine.id });
      return;
    }
    // One transaction with whatever this device's run writes meanwhile; the write syncs as any other.
    await this.host.updateConversation(mine.id, (current) => {
      const kept = [...(current.otherTitles ?? [])];
      for (const entry of offered) if (!holdsTitle({ ...current, otherTitles: kept }, entry.title)) kept.push(entry);
      return { ...current, otherTitles: kept.slice(-20) };
    });
  }

  private async receiveDeletion(conversationId: string, writer: string): Promise<void> {
    this.deleted.add(conversationId);
    this.stateChanged = true;
    if (writer === this.device.id) return;
    if (this.runners.get(conversationId)?.device.id === this.device.id) this.host.runnerLost(conversationId);
    await this.host.deleteLocal(conversationId);
  }

  /** A proposal for a conversation this device runs is applied once; its outcome is written back for its author. */
  private async receiveProposal(proposal: Proposal, documentIdOfProposal: string): Promise<void> {
    if (proposal.outcome || this.handledProposals.has(documentIdOfProposal)) return;
    if (this.runners.get(proposal.conversationId)?.device.id !== this.device.id) return;
    if (proposal.id !== documentIdOfProposal) return; // a proposal copied under another id: never applied
    this.handledProposals.add(documentIdOfProposal);
    const result = await this.host.applyProposal(proposal).catch((error: unknown) => ({ status: 'refused' as const, reason: (error as { reason?: string; code?: string }).reason ?? (error as { code?: string }).code ?? 'failed' }));
    const outcome = { status: result.status, ...(result.status === 'refused' ? { reason: result.reason.slice(0, 100) } : {}), at: this.host.now(), by: this.device };
    await this.write(documentIdOfProposal, { kind: 'proposal', proposal: { ...proposal, outcome } });
  }
}

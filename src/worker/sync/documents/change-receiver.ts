import { isPendingRequest } from '../../../core/requests/request-ids';
import type { RecordChange } from '../../../core/run/store';
import type { Conversation, Message } from '../../../schema/records';
import type { Runner, SyncPayload } from '../../../schema/sync/sync';
import { CHUNK_FORMAT } from '../content/attachment-chunks';
import type { EngineContext } from '../engine-context';
import type { MirrorChange } from '../mirror/mirror';
import type { PushQueue } from './push-queue';
import type { ProposalReceiver } from './proposal-receiver';
import { segmentId, segmentKey, type Segment } from './message-segments';
import { documentId, KEY_DOC_ID } from './sync-crypto';
import { markProposal, measure, RECEIVE_MEASURE } from '../sync-measures';

/** The most of other devices' messages stored in one IndexedDB transaction. */
const MESSAGES_PER_TRANSACTION = 200;
/** The most changes handed on since the position was last kept that are this device's own writes only (see `keep`). */
const OWN_CHANGES_UNKEPT = 500;
/** `opening`'s answer for a revision this device wrote, handed back: nothing to open or apply. */
const OWN_WRITE = 'own';

/** Whether a title differs from the one the conversation had when its runner took it over (unknown: it may). */
function renamedMeanwhile(title: string, runner: Runner | undefined): boolean {
  return runner?.seenTitle === undefined || runner.seenTitle !== title;
}

/** Whether a conversation record holds `title`, as its title or a kept one. */
function holdsTitle(conversation: Conversation, title: string): boolean {
  return conversation.title === title || (conversation.otherTitles ?? []).some((entry) => entry.title === title);
}

/**
 * What the mirror hands on, applied here: runner documents move who runs what, records of conversations another device
 * runs are stored, deletions delete, and proposals for what this device runs go to the ProposalReceiver.
 */
export class ChangeReceiver {
  /** Conversations this device ran until a runner document of another device arrived, in the changes being applied. */
  private readonly lostHere = new Set<string>();
  /** Changes handed on since the position was last kept. */
  private unkept = 0;

  constructor(
    private readonly context: EngineContext,
    private readonly pushQueue: PushQueue,
    private readonly proposals: ProposalReceiver,
  ) {}

  /** What the mirror received (or this device wrote), applied in order; the position is kept once applied. */
  async receive(changes: MirrorChange[]): Promise<void> {
    const started = performance.now();
    try {
      await this.receiveChanges(changes);
    } finally {
      if (changes.length > 0) measure(RECEIVE_MEASURE, started, { documents: changes.length });
    }
  }

  private async receiveChanges(changes: MirrorChange[]): Promise<void> {
    const { book, host } = this.context;
    let runnersMoved = false;
    // Other devices' messages are stored together, in one transaction per run of them (an initial sync is mostly
    // messages); anything else is applied in order after them.
    let messages: Message[] = [];
    const storeMessages = async () => {
      if (messages.length === 0) return;
      const batch = messages;
      messages = [];
      await host.applyRemote({ messages: batch });
      // A request another device's run waits on: a person here may answer it, and the answer is sent at once.
      if (batch.some((message) => message.blocks.some(isPendingRequest))) this.context.mirror.warmSend?.();
    };
    // Opened together (the decryption and the id's HMAC run off this thread), applied one by one in order.
    const opened = changes.map(({ document }) => this.opening(document));
    for (const opening of opened) if (typeof opening === 'object') opening.catch(() => undefined); // awaited below; left unawaited when stopped
    for (const [position, { document }] of changes.entries()) {
      if (this.context.stopped) return;
      if (document._id === KEY_DOC_ID) this.context.keyDocumentChanged();
      if (document.e === CHUNK_FORMAT && !document._deleted) {
        await this.context.attachments.receive(document);
        continue;
      }
      const opening = opened[position];
      const { payload, inPlace } = (opening === OWN_WRITE ? undefined : await opening) ?? {};
      if (!payload) continue;
      if (!inPlace) {
        this.context.refused('misplaced');
        continue;
      }
      if (payload.kind !== 'message' && payload.kind !== 'segment') await storeMessages();
      if (payload.kind === 'runner') runnersMoved = this.receiveRunner(payload.runner) || runnersMoved;
      else if (payload.kind === 'proposal') {
        markProposal('received', 'mirror');
        await this.proposals.receive(payload.proposal, { firstRevision: document._rev?.startsWith('1-') ?? false });
      }
      else if (payload.kind === 'conversation-deleted') await this.receiveDeletion(payload.conversationId, payload.writer);
      else if (payload.kind === 'segment') {
        messages.push(...(await this.receiveSegment(payload)));
        if (messages.length >= MESSAGES_PER_TRANSACTION) await storeMessages();
      } else {
        const change = await this.receiveRecord(payload);
        if (change?.messages) messages.push(...change.messages);
        else if (change) await host.applyRemote(change);
        if (messages.length >= MESSAGES_PER_TRANSACTION) await storeMessages();
      }
    }
    if (this.context.stopped) return;
    await storeMessages();
    await this.reconsiderLost();
    const last = changes.at(-1);
    if (last) {
      // The state first: a crash between the two writes only makes the next start read some documents again.
      if (book.changed) await book.save();
      await this.keep(last.seq, changes.length, opened.every((opening) => opening === OWN_WRITE));
    }
    if (runnersMoved) host.runnersChanged(book.remoteRunners());
  }

  /**
   * Keeps the position the next start follows from. Changes that were all this device's own writes handed back are
   * left for the next news (or every OWN_CHANGES_UNKEPT of them): nothing was applied, and a start that reads them again
   * finds each its own, so a synced round of this device's does not cost a write of the position each time it pushes.
   */
  private async keep(seq: string | number, count: number, ownOnly: boolean): Promise<void> {
    this.unkept += count;
    if (ownOnly && this.unkept < OWN_CHANGES_UNKEPT) return;
    this.unkept = 0;
    await this.context.mirror.setLocal('since', seq);
  }

  /** A document's payload and whether it is in its place; undefined, or OWN_WRITE, for what is not opened (see `receiveChanges`). */
  private opening(document: MirrorChange['document']): Promise<{ payload?: SyncPayload; inPlace?: boolean }> | typeof OWN_WRITE | undefined {
    if (document._id === KEY_DOC_ID || document._deleted || document.e === CHUNK_FORMAT) {
      this.context.sealed.heard(document);
      return undefined;
    }
    if (this.context.sealed.wroteIt(document)) return OWN_WRITE;
    return this.context.sealed.read(document).then(async (payload) => (payload ? { payload, inPlace: await this.inItsPlace(document._id, payload) } : {}));
  }

  /**
   * Whether a document is where its record belongs: ids are HMACs of what they name, so a sealed record the server
   * copied under another record's id (to put one conversation's message into another, say) is found and refused.
   */
  private async inItsPlace(id: string, payload: SyncPayload): Promise<boolean> {
    const { keys } = this.context;
    switch (payload.kind) {
      case 'conversation':
        return id === (await documentId(keys, 'conversation', payload.conversation.id));
      case 'conversation-deleted':
        return id === (await documentId(keys, 'conversation', payload.conversationId));
      case 'message':
        return id === (await documentId(keys, 'message', payload.message.id));
      case 'segment':
        return id === (await segmentId(keys, payload)) && payload.messages.every((message) => message.conversationId === payload.conversationId);
      case 'runner':
        return id === (await documentId(keys, 'runner', payload.runner.conversationId));
      case 'proposal':
        return id === payload.proposal.id;
    }
  }

  /** A runner document: the highest epoch wins (the server's compare-and-set made it); ties go to the smaller id. */
  private receiveRunner(runner: Runner): boolean {
    const { book } = this.context;
    const current = book.runners.get(runner.conversationId);
    if (current && (current.epoch > runner.epoch || (current.epoch === runner.epoch && current.device.id <= runner.device.id))) {
      if (current.device.id === runner.device.id && current.device.name !== runner.device.name) {
        book.runners.set(runner.conversationId, runner);
        book.changed = true;
      }
      return current.device.name !== runner.device.name;
    }
    book.runners.set(runner.conversationId, runner);
    book.changed = true;
    if (runner.device.id !== book.device.id) book.foreign.add(runner.conversationId);
    if (current?.device.id === book.device.id && runner.device.id !== book.device.id) {
      this.context.host.runnerLost(runner.conversationId);
      this.lostHere.add(runner.conversationId);
    }
    return true;
  }

  /**
   * A conversation this device no longer runs: the record the mirror holds for it is taken again as a non-runner takes
   * it. Received while this device still ran it, the new runner's record only had its title kept here, in a write this
   * device may no longer send (it writes only what it runs), and the two devices stayed apart for good.
   */
  private async reconsiderLost(): Promise<void> {
    const { host, keys, mirror } = this.context;
    for (const conversationId of [...this.lostHere]) {
      this.lostHere.delete(conversationId);
      const document = await mirror.get(await documentId(keys, 'conversation', conversationId));
      const payload = document ? await this.context.sealed.read(document) : undefined;
      if (payload?.kind !== 'conversation') continue;
      const change = await this.receiveRecord(payload);
      if (change) await host.applyRemote(change);
    }
  }

  /**
   * A conversation's or message's record another device wrote. Of two versions, the one written under the higher runner
   * epoch wins on every device (the runner's: the server's compare-and-set chose it), whichever revision CouchDB picked:
   * the runner writes its own over a foreign one it sees, and the others ignore an earlier epoch's. A title that loses
   * is not dropped: it is kept in the winner's `otherTitles`.
   */
  private async receiveRecord(payload: Extract<SyncPayload, { kind: 'conversation' | 'message' }>): Promise<RecordChange | undefined> {
    const { book, host } = this.context;
    if (payload.writer === book.device.id) return; // this device's own write, back from the mirror
    const conversationId = payload.kind === 'conversation' ? payload.conversation.id : payload.message.conversationId;
    if (book.deleted.has(conversationId)) return;
    const runner = book.runners.get(conversationId);
    // This device runs it: its own records are the truth. A foreign one is an earlier runner's late write (made before
    // it heard it lost): written over again here, with the title it gave kept.
    if (runner?.device.id === book.device.id) {
      if (payload.kind === 'message') this.pushQueue.markDirty({ kind: 'message', id: payload.message.id, conversationId });
      else await this.keepOtherTitles(payload.conversation, payload.writer);
      return;
    }
    if (!runner && !book.foreign.has(conversationId) && (await host.getConversation(conversationId))) return;
    if (runner && payload.epoch < runner.epoch) return; // superseded: the runner writes over it
    if (payload.kind === 'conversation' && book.isOlderRecord(conversationId, payload.epoch, payload.conversation.updatedAt)) {
      this.context.refused('replayed');
      return;
    }
    const mine = payload.kind === 'conversation' && book.authored.has(conversationId) ? await host.getConversation(conversationId) : undefined;
    if (mine && payload.kind === 'conversation' && renamedMeanwhile(mine.title, runner) && !holdsTitle(payload.conversation, mine.title)) {
      // This device ran it and renamed it before it heard of the take-over: its record goes to the runner again (under an
      // earlier epoch, which the others ignore and whose title the runner keeps) before the runner's replaces it here.
      await this.context.sealed.write(await documentId(this.context.keys, 'conversation', conversationId), { kind: 'conversation', conversation: mine, writer: book.device.id, epoch: Math.max(0, (runner?.epoch ?? payload.epoch) - 1) });
      return;
    }
    if (!book.foreign.has(conversationId)) {
      book.foreign.add(conversationId);
      book.changed = true;
    }
    if (payload.kind === 'conversation' && book.authored.delete(conversationId)) book.changed = true;
    if (payload.kind === 'conversation') book.tookRecord(conversationId, payload.epoch, payload.conversation.updatedAt);
    return payload.kind === 'conversation' ? { conversation: payload.conversation } : { messages: [payload.message] };
  }

  /**
   * A segment of messages another device wrote: each message is taken as a message document of its own is (see
   * receiveRecord), under the segment's writer and epoch. A segment older than one already taken from the same epoch
   * (its newest message older) is the server writing an old revision back: refused, never applied.
   */
  private async receiveSegment(segment: Segment): Promise<Message[]> {
    const { book } = this.context;
    if (segment.writer === book.device.id) return [];
    const newest = Math.max(...segment.messages.map((message) => message.updatedAt));
    const key = segmentKey(segment);
    if (book.isOlderRecord(key, segment.epoch, newest)) {
      this.context.refused('replayed');
      return [];
    }
    this.context.segments.heard(segment);
    const taken: Message[] = [];
    for (const message of segment.messages) {
      const change = await this.receiveRecord({ kind: 'message', message, writer: segment.writer, epoch: segment.epoch });
      if (change?.messages) taken.push(...change.messages);
    }
    if (taken.length > 0) book.tookRecord(key, segment.epoch, newest);
    return taken;
  }

  /** On the runner: another device's version of its conversation. Its title, when it differs, is kept; ours is written again. */
  private async keepOtherTitles(theirs: Conversation, writer: string): Promise<void> {
    const { book, host } = this.context;
    // The title this device took the conversation over with, renamed since, is not kept, wherever it is offered from.
    const runner = book.runners.get(theirs.id);
    const offered = (theirs.otherTitles ?? []).filter((entry) => renamedMeanwhile(entry.title, runner));
    if (renamedMeanwhile(theirs.title, runner)) offered.push({ title: theirs.title, at: theirs.updatedAt, device: writer });
    const mine = await host.getConversation(theirs.id);
    if (!mine) return;
    if (offered.every((entry) => holdsTitle(mine, entry.title))) {
      this.pushQueue.markDirty({ kind: 'conversation', id: mine.id });
      return;
    }
    // One transaction with whatever this device's run writes meanwhile; the write syncs as any other.
    await host.updateConversation(mine.id, (current) => {
      const kept = [...(current.otherTitles ?? [])];
      for (const entry of offered) if (!holdsTitle({ ...current, otherTitles: kept }, entry.title)) kept.push(entry);
      return { ...current, otherTitles: kept.slice(-20) };
    });
  }

  private async receiveDeletion(conversationId: string, writer: string): Promise<void> {
    const { book, host } = this.context;
    book.deleted.add(conversationId);
    book.changed = true;
    this.context.segments.forget(conversationId);
    if (writer === book.device.id) return;
    if (book.runners.get(conversationId)?.device.id === book.device.id) host.runnerLost(conversationId);
    await host.deleteLocal(conversationId);
  }
}

import type { RecordChange } from '../../core/run/store';
import { matchRanges, snippetOf, terms } from '../../core/search-text';
import type { ConversationSearchResult } from '../../schema/protocol';
import type { Conversation, Message } from '../../schema/records';
import { searchableText } from '../../schema/search/searchable-text';
import type { Change } from '../store/change-feed';
import type { ParleyDatabase } from '../store/database';
import type { ConversationMatch, IndexedDocument as Document, SearchIndex } from './search-index';

/** Messages read per request while the index is built. */
const BUILD_BATCH = 500;
/**
 * How long the build indexes before letting the worker answer anything else: a command that arrives meanwhile (open
 * a conversation, answer a question) waits about this long behind it (a garbage collection inside a slice adds to it).
 */
const BUILD_SLICE_MS = 10;
/** Conversations ranked beyond `limit`, so one deleted behind the index's back still leaves a full page. */
const SPARE_HITS = 10;
const TITLE_PREFIX = 'title:';
/** Performance measures the benchmark reads in the worker (bench/search.mjs): a search, and the index's build. */
export const SEARCH_MEASURE = 'parley:conversations.search';
export const BUILD_MEASURE = 'parley:conversations.search.build';

/**
 * Search across conversations: titles and messages' searchable text in an index that lives in this worker
 * (search-index.ts). Nothing is loaded or built until the first search (the index's code is imported then, and the
 * index built from IndexedDB batch by batch); afterwards every committed write is noted in O(1) and applied before the
 * next search, so a streaming reply costs nothing per chunk. The index holds terms and ids only: a hit's text is read
 * back from IndexedDB, which also drops hits whose record is gone. It is rebuilt, not persisted: see README "Search
 * across conversations".
 */
export class ConversationSearch {
  private index: Promise<SearchIndex> | undefined;
  /** Written since the index was last brought up to date, newest record per document id (cut into terms when applied). */
  private readonly pending = new Map<string, Conversation | Message>();
  private readonly deleted = new Set<string>();
  /** Conversations written since: a version of one may have been deleted, so its messages are checked. */
  private readonly touched = new Set<string>();

  constructor(private readonly database: ParleyDatabase) {}

  /** Follows the change feed: every stored change, this tab's or (re-read) another tab's; never what is only shown. */
  readonly follow = (change: Change): void => {
    if (change.scope !== 'document') return;
    if (change.imported) return this.invalidate();
    for (const conversationId of change.removed ?? []) this.noteDeleted(conversationId);
    this.noteChange(change);
  };

  /** A committed write (this tab's or, re-read, another tab's). Ignored until the first search builds the index. */
  noteChange(change: RecordChange): void {
    if (!this.index) return;
    if (change.conversation) {
      this.pending.set(TITLE_PREFIX + change.conversation.id, change.conversation);
      this.touched.add(change.conversation.id);
    }
    for (const message of change.messages ?? []) this.pending.set(message.id, message);
  }

  noteDeleted(conversationId: string): void {
    if (this.index) this.deleted.add(conversationId);
  }

  /** Many records changed at once (an import, here or in another tab): rebuilt on the next search. */
  invalidate(): void {
    this.index = undefined;
    this.pending.clear();
    this.deleted.clear();
    this.touched.clear();
  }

  /**
   * The best `limit` conversations matching every word of `query` (the last may be the start of a word), best first:
   * each with its best message and how many of its messages match.
   */
  async search(query: string, limit: number): Promise<ConversationSearchResult[]> {
    const queryTerms = terms(query, true);
    if (queryTerms.length === 0) return [];
    const started = performance.now();
    this.index ??= this.build();
    const index = await this.index;
    await this.bringUpToDate(index);
    const { conversations: hits, total } = index.rank(queryTerms, true, limit + SPARE_HITS);
    // The spare hits are read only when some of the first `limit` are gone.
    const results = await this.resultsOf(hits.slice(0, limit), limit);
    if (results.length < limit && hits.length > limit) results.push(...(await this.resultsOf(hits.slice(limit), limit - results.length)));
    performance.clearMeasures(SEARCH_MEASURE); // only the last is kept: no timeline growing with every search
    performance.measure(SEARCH_MEASURE, { start: started, detail: { query, hits: total } });
    return results;
  }

  /** Up to `limit` results for `hits`, read from IndexedDB (a hit whose records are gone is dropped). */
  private async resultsOf(hits: readonly ConversationMatch[], limit: number): Promise<ConversationSearchResult[]> {
    const transaction = this.database.transaction(['conversations', 'messages'], 'readonly');
    const conversationStore = transaction.objectStore('conversations');
    const messageStore = transaction.objectStore('messages');
    // Every record at once: one round trip, however many hits.
    const [conversations, messages] = await Promise.all([
      Promise.all(hits.map((hit) => conversationStore.get(hit.conversationId))),
      Promise.all(hits.map((hit) => (hit.best ? messageStore.get(hit.best.id) : undefined))),
    ]);
    const results: ConversationSearchResult[] = [];
    for (const [position, hit] of hits.entries()) {
      const conversation = conversations[position];
      const message = messages[position];
      if (!conversation || (hit.best && !message)) continue;
      const title = { text: conversation.title, ranges: hit.title ? matchRanges(conversation.title, new Set(hit.title.terms)) : [] };
      const best = message && hit.best ? { messageId: message.id, seq: message.seq, snippet: snippetOf(searchableText(message), new Set(hit.best.terms)) } : undefined;
      results.push({ conversationId: conversation.id, title, best, matchingMessages: hit.messages });
      if (results.length === limit) break;
    }
    return results;
  }

  /**
   * Applies the writes noted since the last search, then the deletions; a conversation written meanwhile loses from the
   * index the messages no longer stored (a deleted version: a write says what it stored, not what it deleted).
   */
  private async bringUpToDate(index: SearchIndex): Promise<void> {
    // Many may wait (what sync brought from another device): added in slices, as the build adds.
    const written = [...this.pending.values()];
    this.pending.clear();
    const slices = new Slices();
    await slices.each(written, (record) => index.add('seq' in record ? messageDocument(record) : titleDocument(record)));
    slices.end();
    for (const conversationId of this.deleted) index.discardConversation(conversationId);
    this.deleted.clear();
    if (this.touched.size === 0) return;
    const touched = [...this.touched];
    this.touched.clear();
    const messages = this.database.transaction('messages', 'readonly').objectStore('messages').index('by-conversation');
    const stored = await Promise.all(touched.map((id) => messages.getAllKeys(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]))));
    for (const [position, conversationId] of touched.entries()) {
      const kept = new Set<IDBValidKey>(stored[position]);
      // A write noted while the keys were read is newer than them: it is applied on the next search.
      for (const id of index.messageIdsOf(conversationId)) if (!kept.has(id) && !this.pending.has(id)) index.discard(id);
    }
  }

  /**
   * Reads every title and message in batches of readonly transactions, so no write waits for the whole walk, and
   * indexes them in slices of at most BUILD_SLICE_MS, yielding to the worker's other tasks between slices.
   */
  private async build(): Promise<SearchIndex> {
    const started = performance.now();
    // Loaded with the first search, not with the worker: search costs the first load nothing.
    const { SearchIndex } = await import('./search-index');
    const index = new SearchIndex();
    const slices = new Slices();
    const addAll = (documents: Iterable<Document>) =>
      slices.each(documents, (document) => {
        // A write noted meanwhile is newer than what the walk read; it is applied before the first search.
        if (!this.pending.has(document.id) && !index.has(document.id)) index.add(document);
      });
    const conversations = await this.database.getAll('conversations');
    slices.begin();
    await addAll(conversations.map(titleDocument));
    const read = (after: string | undefined) => this.database.getAll('messages', after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), BUILD_BATCH);
    // The next batch is read while this one is indexed: IndexedDB works on its own thread meanwhile.
    let next = read(undefined);
    for (;;) {
      slices.end();
      const batch = await next;
      slices.begin();
      const full = batch.length === BUILD_BATCH;
      if (full) next = read(batch[batch.length - 1]!.id);
      await addAll(batch.map(messageDocument));
      if (!full) break;
    }
    slices.end();
    performance.clearMeasures(BUILD_MEASURE);
    performance.measure(BUILD_MEASURE, { start: started, detail: { documents: index.documentCount, longestSlice: slices.longest, working: slices.working } });
    return index;
  }
}

/**
 * Work done in slices of at most BUILD_SLICE_MS, yielding to the worker's other tasks between them; `begin` and `end`
 * bracket the work between waits (for IndexedDB), so `working` and `longest` count the work alone.
 */
class Slices {
  /** The longest the work kept the worker from anything else, and its time in all. */
  longest = 0;
  working = 0;
  private start = performance.now();

  begin(): void {
    this.start = performance.now();
  }

  end(): void {
    const length = performance.now() - this.start;
    this.longest = Math.max(this.longest, length);
    this.working += length;
  }

  async each<T>(items: Iterable<T>, work: (item: T) => void): Promise<void> {
    for (const item of items) {
      work(item);
      if (performance.now() - this.start < BUILD_SLICE_MS) continue;
      this.end();
      await nextTask();
      this.begin();
    }
  }
}

function titleDocument(conversation: Conversation): Document {
  return { id: TITLE_PREFIX + conversation.id, conversationId: conversation.id, title: true, terms: terms(conversation.title) };
}

function messageDocument(message: Message): Document {
  return { id: message.id, conversationId: message.conversationId, title: false, terms: terms(searchableText(message)) };
}

/**
 * Resolves in a task of its own, queued after what already waits (a command from the page). scheduler.postTask costs
 * about 0.02 ms; a MessageChannel round 0.2 ms; setTimeout(0) is clamped to 4 ms; scheduler.yield() would run before
 * the waiting commands (its continuation is put first), which is what slicing is for.
 */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { postTask?: (callback: () => void) => Promise<void> } }).scheduler;
  if (scheduler?.postTask) return scheduler.postTask(() => {});
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

import type { RecordChange } from '../core/store';
import { messageText } from '../core/message-text';
import { snippetOf, terms } from '../core/search-text';
import type { ConversationSearchResult } from '../schema/protocol';
import type { Conversation, Message } from '../schema/records';
import type { Change } from './change-feed';
import type { ParleyDatabase } from './database';
import type { RankedMatch, SearchDocument as Document, SearchIndex } from './search-ranking';

/** Messages read per request while the index is built. */
const BUILD_BATCH = 500;
/**
 * How long the build indexes before letting the worker answer anything else: a command that arrives meanwhile (open
 * a conversation, answer a question) waits about this long behind it (a garbage collection inside a slice adds to it).
 */
const BUILD_SLICE_MS = 10;
/** Candidates read beyond `limit`, so hits of records deleted behind the index's back still leave a full page. */
const SPARE_HITS = 10;
const TITLE_PREFIX = 'title:';
/** Performance measures the benchmark reads in the worker (bench/search.mjs): a search, and the index's build. */
export const SEARCH_MEASURE = 'parley:conversations.search';
export const BUILD_MEASURE = 'parley:conversations.search.build';

/**
 * Search across conversations: titles and message text in a MiniSearch index that lives in this worker. Nothing is
 * loaded or built until the first search (the library is imported then, and the index built from IndexedDB batch by
 * batch); afterwards every committed write is noted in O(1) and applied before the next search, so a streaming reply
 * costs nothing per chunk. The index holds terms and ids only: a hit's text is read back from IndexedDB, which also
 * drops hits whose record is gone. It is rebuilt, not persisted: see README "Search across conversations".
 */
export class ConversationSearch {
  private index: Promise<SearchIndex> | undefined;
  /** Written since the index was last brought up to date, newest record per id. */
  private readonly pending = new Map<string, Document>();
  private readonly deleted = new Set<string>();
  /** Every indexed id of a conversation, so deleting it removes them all. */
  private readonly idsByConversation = new Map<string, Set<string>>();

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
    if (change.conversation) this.note(change.conversation.id, titleDocument(change.conversation));
    for (const message of change.messages ?? []) this.note(message.conversationId, messageDocument(message));
  }

  noteDeleted(conversationId: string): void {
    if (this.index) this.deleted.add(conversationId);
  }

  /** Many records changed at once (an import, here or in another tab): rebuilt on the next search. */
  invalidate(): void {
    this.index = undefined;
    this.pending.clear();
    this.deleted.clear();
    this.idsByConversation.clear();
  }

  /** The best `limit` matches of every word of `query` (the last may be the start of a word), best first. */
  async search(query: string, limit: number): Promise<ConversationSearchResult[]> {
    if (terms(query, true).length === 0) return [];
    const started = performance.now();
    this.index ??= this.build();
    const index = await this.index;
    this.applyPending(index);
    const { matches: hits, total } = index.rank(terms(query, true), isTypedWord, limit + SPARE_HITS);
    // The spare hits are read only when some of the first `limit` are gone.
    const results = await this.resultsOf(hits.slice(0, limit), limit);
    if (results.length < limit && hits.length > limit) results.push(...(await this.resultsOf(hits.slice(limit), limit - results.length)));
    performance.clearMeasures(SEARCH_MEASURE); // only the last is kept: no timeline growing with every search
    performance.measure(SEARCH_MEASURE, { start: started, detail: { query, hits: total } });
    return results;
  }

  /** Up to `limit` results for `hits`, read from IndexedDB (a hit whose record is gone is dropped). */
  private async resultsOf(hits: readonly RankedMatch[], limit: number): Promise<ConversationSearchResult[]> {
    const transaction = this.database.transaction(['conversations', 'messages'], 'readonly');
    const conversationStore = transaction.objectStore('conversations');
    const messageStore = transaction.objectStore('messages');
    // All messages at once, then each of their conversations once: two round trips, however many hits.
    const messages = await Promise.all(hits.map((hit) => (hit.id.startsWith(TITLE_PREFIX) ? undefined : messageStore.get(hit.id))));
    const conversationIds = new Set(hits.map((hit, position) => messages[position]?.conversationId ?? (hit.id.startsWith(TITLE_PREFIX) ? hit.id.slice(TITLE_PREFIX.length) : undefined)));
    conversationIds.delete(undefined);
    const conversations = new Map(await Promise.all([...conversationIds].map(async (id) => [id, await conversationStore.get(id!)] as const)));
    const results: ConversationSearchResult[] = [];
    for (const [position, hit] of hits.entries()) {
      const message = messages[position];
      const conversation = conversations.get(message ? message.conversationId : hit.id.slice(TITLE_PREFIX.length));
      if (!conversation || (!message && !hit.id.startsWith(TITLE_PREFIX))) continue;
      const matched = new Set(hit.terms);
      if (message) results.push({ conversationId: conversation.id, title: conversation.title, messageId: message.id, seq: message.seq, snippet: snippetOf(messageText(message), matched) });
      else results.push({ conversationId: conversation.id, title: conversation.title, snippet: snippetOf(conversation.title, matched) });
      if (results.length === limit) break;
    }
    return results;
  }

  private note(conversationId: string, document: Document): void {
    this.pending.set(document.id, document);
    let ids = this.idsByConversation.get(conversationId);
    if (!ids) this.idsByConversation.set(conversationId, (ids = new Set()));
    ids.add(document.id);
  }

  private applyPending(index: SearchIndex): void {
    for (const document of this.pending.values()) {
      if (index.has(document.id)) index.replace(document);
      else index.add(document);
    }
    this.pending.clear();
    for (const conversationId of this.deleted) {
      for (const id of this.idsByConversation.get(conversationId) ?? []) index.discard(id);
      this.idsByConversation.delete(conversationId);
    }
    this.deleted.clear();
  }

  /**
   * Reads every title and message in batches of readonly transactions, so no write waits for the whole walk, and
   * indexes them in slices of at most BUILD_SLICE_MS, yielding to the worker's other tasks between slices.
   */
  private async build(): Promise<SearchIndex> {
    const started = performance.now();
    // Both load with the first search, not with the worker: search costs the first load nothing.
    const [{ default: MiniSearchClass }, { SearchIndex }] = await Promise.all([import('minisearch'), import('./search-ranking')]);
    const index = new SearchIndex(MiniSearchClass, (text) => terms(text));
    index.startBuild();
    let longestSlice = 0;
    /** The build's own time, without its waits for IndexedDB and for other tasks. */
    let working = 0;
    let sliceStart = performance.now();
    const endSlice = () => {
      const length = performance.now() - sliceStart;
      longestSlice = Math.max(longestSlice, length);
      working += length;
    };
    const addAll = async (documents: Iterable<[string, Document]>) => {
      for (const [conversationId, document] of documents) {
        this.add(index, conversationId, document);
        if (performance.now() - sliceStart < BUILD_SLICE_MS) continue;
        endSlice();
        await nextTask();
        sliceStart = performance.now();
      }
    };
    const conversations = await this.database.getAll('conversations');
    sliceStart = performance.now();
    await addAll(conversations.map((conversation) => [conversation.id, titleDocument(conversation)]));
    const read = (after: string | undefined) => this.database.getAll('messages', after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), BUILD_BATCH);
    // The next batch is read while this one is indexed: IndexedDB works on its own thread meanwhile.
    let next = read(undefined);
    for (;;) {
      endSlice();
      const batch = await next;
      sliceStart = performance.now();
      const full = batch.length === BUILD_BATCH;
      if (full) next = read(batch[batch.length - 1]!.id);
      await addAll(batch.map((message) => [message.conversationId, messageDocument(message)]));
      if (!full) break;
    }
    endSlice();
    index.finishBuild();
    performance.clearMeasures(BUILD_MEASURE);
    performance.measure(BUILD_MEASURE, { start: started, detail: { documents: index.documentCount, longestSlice, working } });
    return index;
  }

  private add(index: SearchIndex, conversationId: string, document: Document): void {
    // A write noted meanwhile is newer than what the walk read; it is applied before the first search.
    if (this.pending.has(document.id) || index.has(document.id)) return;
    index.add(document);
    let ids = this.idsByConversation.get(conversationId);
    if (!ids) this.idsByConversation.set(conversationId, (ids = new Set()));
    ids.add(document.id);
  }
}

/**
 * Only the word being typed (the last) is read as the start of a word, and only from three characters: a short prefix
 * expands to thousands of terms, and merging their matches was most of a slow query's time (bench/search.mjs).
 */
function isTypedWord(term: string, index: number, all: readonly string[]): boolean {
  return index === all.length - 1 && term.length >= 3;
}

function titleDocument(conversation: Conversation): Document {
  return { id: TITLE_PREFIX + conversation.id, text: conversation.title };
}

function messageDocument(message: Message): Document {
  return { id: message.id, text: messageText(message) };
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

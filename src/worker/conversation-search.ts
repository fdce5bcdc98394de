import type MiniSearch from 'minisearch';
import type { RecordChange } from '../core/store';
import { messageText } from '../core/message-text';
import { snippetOf, terms } from '../core/search-text';
import type { ConversationSearchResult } from '../schema/protocol';
import type { Conversation, Message } from '../schema/records';
import type { ParleyDatabase } from './database';

/** Messages read per request while the index is built; the worker answers the page between batches. */
const BUILD_BATCH = 500;
/** Candidates read beyond `limit`, so hits of records deleted behind the index's back still leave a full page. */
const SPARE_HITS = 10;
const TITLE_PREFIX = 'title:';
/** Performance measures the benchmark reads in the worker (bench/search.mjs): a search, and the index's build. */
export const SEARCH_MEASURE = 'parley:conversations.search';
export const BUILD_MEASURE = 'parley:conversations.search.build';

interface Document {
  id: string;
  text: string;
}

/**
 * Search across conversations: titles and message text in a MiniSearch index that lives in this worker. Nothing is
 * loaded or built until the first search (the library is imported then, and the index built from IndexedDB batch by
 * batch); afterwards every committed write is noted in O(1) and applied before the next search, so a streaming reply
 * costs nothing per chunk. The index holds terms and ids only: a hit's text is read back from IndexedDB, which also
 * drops hits whose record is gone. It is rebuilt, not persisted: see README "Search across conversations".
 */
export class ConversationSearch {
  private index: Promise<MiniSearch<Document>> | undefined;
  /** Written since the index was last brought up to date, newest record per id. */
  private readonly pending = new Map<string, Document>();
  private readonly deleted = new Set<string>();
  /** Every indexed id of a conversation, so deleting it removes them all. */
  private readonly idsByConversation = new Map<string, Set<string>>();

  constructor(private readonly database: ParleyDatabase) {}

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
    const hits = index.search(query, { prefix: isTypedWord, combineWith: 'AND' }).slice(0, limit + SPARE_HITS);
    const transaction = this.database.transaction(['conversations', 'messages'], 'readonly');
    const conversations = transaction.objectStore('conversations');
    const messages = transaction.objectStore('messages');
    const records = await Promise.all(
      hits.map(async (hit) => {
        const id = String(hit.id);
        const message = id.startsWith(TITLE_PREFIX) ? undefined : await messages.get(id);
        const conversation = await conversations.get(message ? message.conversationId : id.slice(TITLE_PREFIX.length));
        return { hit, message, conversation };
      }),
    );
    const results: ConversationSearchResult[] = [];
    for (const { hit, message, conversation } of records) {
      if (!conversation || (!message && !String(hit.id).startsWith(TITLE_PREFIX))) continue;
      const matched = new Set(hit.terms);
      if (message) results.push({ conversationId: conversation.id, title: conversation.title, messageId: message.id, seq: message.seq, snippet: snippetOf(messageText(message), matched) });
      else results.push({ conversationId: conversation.id, title: conversation.title, snippet: snippetOf(conversation.title, matched) });
      if (results.length === limit) break;
    }
    performance.clearMeasures(SEARCH_MEASURE); // only the last is kept: no timeline growing with every search
    performance.measure(SEARCH_MEASURE, { start: started, detail: { query, hits: hits.length } });
    return results;
  }

  private note(conversationId: string, document: Document): void {
    this.pending.set(document.id, document);
    let ids = this.idsByConversation.get(conversationId);
    if (!ids) this.idsByConversation.set(conversationId, (ids = new Set()));
    ids.add(document.id);
  }

  private applyPending(index: MiniSearch<Document>): void {
    for (const document of this.pending.values()) {
      if (index.has(document.id)) index.replace(document);
      else index.add(document);
    }
    this.pending.clear();
    for (const conversationId of this.deleted) {
      for (const id of this.idsByConversation.get(conversationId) ?? []) if (index.has(id)) index.discard(id);
      this.idsByConversation.delete(conversationId);
    }
    this.deleted.clear();
  }

  /** Reads every title and message in batches of readonly transactions, so no write waits for the whole walk. */
  private async build(): Promise<MiniSearch<Document>> {
    const started = performance.now();
    const { default: MiniSearchClass } = await import('minisearch');
    const index = new MiniSearchClass<Document>({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => terms(text),
      searchOptions: { tokenize: (text) => terms(text, true) },
    });
    for (const conversation of await this.database.getAll('conversations')) this.add(index, conversation.id, titleDocument(conversation));
    let after: string | undefined;
    for (;;) {
      const batch = await this.database.getAll('messages', after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), BUILD_BATCH);
      for (const message of batch) this.add(index, message.conversationId, messageDocument(message));
      if (batch.length < BUILD_BATCH) break;
      after = batch[batch.length - 1]!.id;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    performance.clearMeasures(BUILD_MEASURE);
    performance.measure(BUILD_MEASURE, { start: started, detail: { documents: index.documentCount } });
    return index;
  }

  private add(index: MiniSearch<Document>, conversationId: string, document: Document): void {
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
function isTypedWord(term: string, index: number, all: string[]): boolean {
  return index === all.length - 1 && term.length >= 3;
}

function titleDocument(conversation: Conversation): Document {
  return { id: TITLE_PREFIX + conversation.id, text: conversation.title };
}

function messageDocument(message: Message): Document {
  return { id: message.id, text: messageText(message) };
}

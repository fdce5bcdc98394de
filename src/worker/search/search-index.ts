// The index of search across conversations (README "Search across conversations"): the postings of each term, the
// terms grouped by their first PREFIX_MIN characters for the word being typed, and BM25+ scores summed in typed arrays
// over the documents that hold every word of a query. A query answers with its best few conversations, each with its
// best message and how many of its messages match, without building or sorting anything per matching document.

import { compact, indexOf, Terms, type DerivedTerm, type Postings } from './search-terms';

export { PREFIX_MIN } from './search-terms';

/** BM25+ (Lv and Zhai, 2011): k1 and b as usual, and d, the floor a matched term adds however long the document. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** A title or a message, as its terms (core/search-text `terms`). */
export interface IndexedDocument {
  id: string;
  conversationId: string;
  /** The conversation's title (one per conversation), not one of its messages. */
  title: boolean;
  terms: readonly string[];
}

interface DocumentMatch {
  id: string;
  score: number;
  /** The document's own terms that matched (for the word being typed, the whole words), to mark in a snippet. */
  terms: string[];
}

export interface ConversationMatch {
  conversationId: string;
  /** The best score among its matching documents (title or message): conversations are ranked by it. */
  score: number;
  /** Its best matching message (equal scores: the later indexed); absent when only its title matches. */
  best?: DocumentMatch;
  /** Its title, when that matches too. */
  title?: DocumentMatch;
  /** How many of its messages match. */
  messages: number;
}

interface Ranking {
  /** The best `limit` conversations, best first (equal scores: the one indexed later first). */
  conversations: ConversationMatch[];
  /** How many conversations match in all. */
  total: number;
}

/**
 * An inverted index of titles and messages. A document is numbered as it is added, and numbers are never reused: a
 * replaced or discarded document's number is dead (length 0) and its postings are dropped lazily.
 */
export class SearchIndex {
  private readonly terms = new Terms();
  private readonly numberOf = new Map<string, number>();
  /** Per document number: its id ('' once dead), its conversation's number, its postings (undefined once dead). */
  private readonly ids: string[] = [];
  private readonly conversationOf: number[] = [];
  private readonly termsOf: (Postings[] | undefined)[] = [];
  /** Per document number: how many distinct terms it holds (0 once dead), and 1 for a title. */
  private lengths = new Float64Array(1024);
  private titles = new Uint8Array(1024);
  private readonly conversationNumbers = new Map<string, number>();
  private readonly conversationIds: string[] = [];
  private readonly documentsOf: Set<number>[] = [];
  private liveDocuments = 0;
  private totalLength = 0;
  /** Per document number, a query's score so far and how many of its terms matched: zeroed after each query. */
  private scores = new Float64Array(0);
  private matched = new Uint16Array(0);
  /** Per conversation number, a query's findings: zeroed after each query. */
  private perConversation = perConversation(0);

  get documentCount(): number {
    return this.liveDocuments;
  }

  has(id: string): boolean {
    return this.numberOf.has(id);
  }

  /** Adds a document, or replaces the one with its id. */
  add(document: IndexedDocument): void {
    this.discard(document.id);
    const number = this.ids.length;
    this.ids.push(document.id);
    this.numberOf.set(document.id, number);
    const conversation = this.conversationNumber(document.conversationId);
    this.conversationOf.push(conversation);
    this.documentsOf[conversation]!.add(number);
    if (number >= this.lengths.length) this.grow(number + 1);
    const counts = new Map<string, number>();
    for (const term of document.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const held: Postings[] = [];
    for (const [term, count] of counts) {
      const postings = this.terms.postingsOf(term);
      postings.documents.push(number);
      postings.counts.push(count);
      postings.live += 1;
      held.push(postings);
    }
    this.termsOf.push(held);
    this.lengths[number] = counts.size;
    this.titles[number] = document.title ? 1 : 0;
    this.liveDocuments += 1;
    this.totalLength += counts.size;
  }

  /** Removes the document with this id, if indexed. */
  discard(id: string): void {
    const number = this.numberOf.get(id);
    if (number === undefined) return;
    this.numberOf.delete(id);
    this.ids[number] = '';
    this.documentsOf[this.conversationOf[number]!]!.delete(number);
    this.liveDocuments -= 1;
    this.totalLength -= this.lengths[number]!;
    this.lengths[number] = 0;
    for (const postings of this.termsOf[number]!) {
      postings.live -= 1;
      if (postings.live === 0) this.terms.drop(postings);
      else if (postings.documents.length >= 2 * postings.live + 8) compact(postings, this.lengths);
    }
    this.termsOf[number] = undefined;
  }

  /** Removes every document of a conversation (its title and messages). */
  discardConversation(conversationId: string): void {
    const conversation = this.conversationNumbers.get(conversationId);
    if (conversation === undefined) return;
    for (const number of [...this.documentsOf[conversation]!]) this.discard(this.ids[number]!);
  }

  /** The ids of a conversation's indexed messages (not its title). */
  messageIdsOf(conversationId: string): string[] {
    const conversation = this.conversationNumbers.get(conversationId);
    if (conversation === undefined) return [];
    return [...this.documentsOf[conversation]!].filter((number) => !this.titles[number]).map((number) => this.ids[number]!);
  }

  /**
   * The conversations with documents holding every one of `queryTerms`, ranked by their best document's BM25+ score.
   * With `typing`, the last term also matches as the start of longer terms, from PREFIX_MIN characters.
   */
  rank(queryTerms: readonly string[], typing: boolean, limit: number): Ranking {
    if (queryTerms.length === 0) return { conversations: [], total: 0 };
    const last = queryTerms.length - 1;
    const specs = queryTerms.map((term, position) => this.terms.derived(term, typing && position === last));
    // Every word must match: start from the rarest, so the candidates are few from the start.
    const ordered = specs.map((derived) => ({ derived, size: derived.reduce((sum, item) => sum + item.postings.live, 0) })).sort((a, b) => a.size - b.size);
    if (ordered[0]!.size === 0) return { conversations: [], total: 0 };
    if (this.scores.length < this.lengths.length) {
      this.scores = new Float64Array(this.lengths.length);
      this.matched = new Uint16Array(this.lengths.length);
    }
    /** Every document scored: the candidates after the first term (the later ones only narrow them). */
    const touched: number[] = [];
    try {
      const candidates = this.score(ordered, touched);
      return this.byConversation(candidates, new Set(specs.flat().map((item) => item.postings)), limit);
    } finally {
      for (const number of touched) {
        this.scores[number] = 0;
        this.matched[number] = 0;
      }
    }
  }

  /** Sums each candidate's score term by term, narrowing the candidates to those holding every term so far. */
  private score(ordered: { derived: DerivedTerm[]; size: number }[], touched: number[]): number[] {
    const { lengths, scores, matched } = this;
    // BM25+'s term-frequency part, k·(1 − b + b·length/average), split into its constant and its per-length factor.
    const lengthFactor = (BM25.k * BM25.b * this.liveDocuments) / this.totalLength;
    const constant = BM25.k * (1 - BM25.b);
    const scoreOf = (scale: number, count: number, number: number) => scale * (BM25.d + (count * (BM25.k + 1)) / (count + constant + lengthFactor * lengths[number]!));
    let candidates = touched;
    for (let position = 0; position < ordered.length; position += 1) {
      const { derived, size } = ordered[position]!;
      const next = position + 1;
      // A later term: look the few candidates up in its postings rather than walk them all, when that is less work.
      const lookUp = position > 0 && candidates.length * derived.length * Math.log2(size + 2) < size;
      for (const { weight, postings } of derived) {
        const scale = weight * Math.log(1 + (this.liveDocuments - postings.live + 0.5) / (postings.live + 0.5));
        const { documents, counts } = postings;
        if (lookUp) {
          for (const number of candidates) {
            const at = indexOf(documents, number);
            if (at < 0) continue;
            scores[number] = scores[number]! + scoreOf(scale, counts[at]!, number);
            matched[number] = next;
          }
          continue;
        }
        for (let at = 0; at < documents.length; at += 1) {
          const number = documents[at]!;
          const seen = matched[number];
          if (seen !== position && seen !== next) continue; // missed an earlier term
          if (lengths[number] === 0) continue; // dead, not yet dropped from these postings
          scores[number] = scores[number]! + scoreOf(scale, counts[at]!, number);
          if (seen === next) continue;
          matched[number] = next;
          if (position === 0) candidates.push(number);
        }
      }
      if (position > 0) candidates = candidates.filter((number) => matched[number] === next);
      if (candidates.length === 0) break;
    }
    return candidates;
  }

  /** Groups the candidates by conversation: its best message, its title, how many messages; then keeps the best `limit`. */
  private byConversation(candidates: readonly number[], derived: ReadonlySet<Postings>, limit: number): Ranking {
    const { scores, titles } = this;
    const count = this.conversationIds.length;
    if (this.perConversation.score.length < count) this.perConversation = perConversation(Math.max(count, 2 * this.perConversation.score.length));
    const { score: best, message, title, messages } = this.perConversation;
    const found: number[] = [];
    for (const number of candidates) {
      const conversation = this.conversationOf[number]!;
      const score = scores[number]!;
      if (message[conversation] === 0 && title[conversation] === 0) {
        found.push(conversation);
        best[conversation] = score;
      } else if (score > best[conversation]!) best[conversation] = score;
      if (titles[number]) title[conversation] = number + 1;
      else {
        messages[conversation] = messages[conversation]! + 1;
        const kept = message[conversation]! - 1;
        if (kept < 0 || score > scores[kept]! || (score === scores[kept] && number > kept)) message[conversation] = number + 1;
      }
    }
    const better = (a: number, b: number) => best[a]! > best[b]! || (best[a] === best[b] && a > b);
    const match = (stored: number): DocumentMatch | undefined => {
      const number = stored - 1;
      if (number < 0) return undefined;
      return { id: this.ids[number]!, score: scores[number]!, terms: this.termsOf[number]!.filter((postings) => derived.has(postings)).map((postings) => postings.term) };
    };
    const conversations = bestOf(found, limit, better).map((conversation) => ({
      conversationId: this.conversationIds[conversation]!,
      score: best[conversation]!,
      best: match(message[conversation]!),
      title: match(title[conversation]!),
      messages: messages[conversation]!,
    }));
    for (const conversation of found) message[conversation] = title[conversation] = messages[conversation] = 0;
    return { conversations, total: found.length };
  }

  private conversationNumber(conversationId: string): number {
    let number = this.conversationNumbers.get(conversationId);
    if (number === undefined) {
      number = this.conversationIds.push(conversationId) - 1;
      this.conversationNumbers.set(conversationId, number);
      this.documentsOf.push(new Set());
    }
    return number;
  }

  private grow(size: number): void {
    const capacity = Math.max(size, this.lengths.length * 2);
    const lengths = new Float64Array(capacity);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const titles = new Uint8Array(capacity);
    titles.set(this.titles);
    this.titles = titles;
  }
}

/**
 * A query's findings per conversation number: its best score, its best message's and its title's document numbers
 * plus one (0: none), and how many of its messages match.
 */
function perConversation(size: number) {
  return { score: new Float64Array(size), message: new Int32Array(size), title: new Int32Array(size), messages: new Int32Array(size) };
}

/** The best `limit` of `items` by `better`, best first: most are turned away by one comparison with the last kept. */
function bestOf<T>(items: readonly T[], limit: number, better: (a: T, b: T) => boolean): T[] {
  const best: T[] = [];
  for (const item of items) {
    if (best.length === limit && !better(item, best[limit - 1]!)) continue;
    let at = best.length === limit ? limit - 1 : best.length;
    while (at > 0 && better(item, best[at - 1]!)) {
      best[at] = best[at - 1]!;
      at -= 1;
    }
    best[at] = item;
  }
  return best;
}

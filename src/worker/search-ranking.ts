import type MiniSearch from 'minisearch';

// A MiniSearch index of one text field, asked for its best few matches without scoring and sorting every match.
// MiniSearch's own search builds a result object (with its terms and matched fields) for every matching document and
// sorts them all: a word in most of 100,000 messages took over a second for the 20 results shown (bench/search.mjs).
// Here its postings are read directly, scores are summed in typed arrays, and only the best `limit` are kept. The
// scoring is MiniSearch's (BM25+ with its defaults, its weight for a prefix match, every word required as with
// `combineWith: 'AND'`): tests/unit/search-ranking.test.ts checks the scores against MiniSearch's own search.

export interface SearchDocument {
  id: string;
  text: string;
}

/** The parts of a MiniSearch 7.2 index read here (private there: the version is pinned in package.json). */
interface Postings {
  /** Per field id, the documents (short ids) holding the term and how often. */
  get(fieldId: number): Map<number, number> | undefined;
}
interface Internals {
  _index: {
    get(term: string): Postings | undefined;
    atPrefix(prefix: string): Iterable<[string, Postings]>;
    fetch(term: string, initial: () => Map<number, Map<number, number>>): Map<number, Map<number, number>>;
  };
  addDocumentId(id: string): number;
  addFieldLength(shortId: number, fieldId: number, count: number, length: number): void;
  _idToShortId: Map<string, number>;
  _documentIds: Map<number, string>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _nextId: number;
}

/** MiniSearch's defaults: BM25+ parameters, and the weight of a prefix match. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
/** The one field's id in MiniSearch (`fields: ['text']`). */
const TEXT = 0;

export interface RankedMatch {
  id: string;
  /** MiniSearch's score for this document and query. */
  score: number;
  /** The terms of the document that matched (for a prefix, the whole words), to mark in a snippet. */
  terms: string[];
}

export interface Ranking {
  /** The best `limit` matches, best first; equal scores put the later-indexed document first. */
  matches: RankedMatch[];
  /** How many documents matched in all. */
  total: number;
}

interface DerivedTerm {
  term: string;
  weight: number;
  postings: Map<number, number>;
}

export class SearchIndex {
  readonly index: MiniSearch<SearchDocument>;
  private readonly internals: Internals;
  /** Each live document's number of distinct terms, by short id; 0 once discarded (a discarded id is never reused). */
  private lengths = new Float64Array(1024);
  /** Per short id, a query's score so far and how many of its terms matched: kept between queries, zeroed after each. */
  private scores = new Float64Array(0);
  private matched = new Uint16Array(0);
  /** While a build runs: each term's postings, so an add skips MiniSearch's walk of its radix tree (see `startBuild`). */
  private buildPostings: Map<string, Map<number, number>> | undefined;

  constructor(
    MiniSearchClass: typeof MiniSearch,
    private readonly tokenize: (text: string) => string[],
  ) {
    this.index = new MiniSearchClass<SearchDocument>({ fields: ['text'], storeFields: [], tokenize, processTerm: (term) => term });
    this.internals = this.index as unknown as Internals;
  }

  get documentCount(): number {
    return this.index.documentCount;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  add(document: SearchDocument): void {
    if (this.buildPostings && !this.index.has(document.id)) this.addDirectly(document, this.buildPostings);
    else this.index.add(document);
    const shortId = this.internals._idToShortId.get(document.id)!;
    if (shortId >= this.lengths.length) {
      const grown = new Float64Array(Math.max(shortId + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[shortId] = this.internals._fieldLength.get(shortId)?.[TEXT] ?? 0;
  }

  /**
   * Until `finishBuild`, adds write MiniSearch's postings themselves, each term once per document with its count:
   * MiniSearch's add walks its radix tree and updates a posting once per occurrence, and indexing 100,000 messages
   * took 2.5 times as long (tests/unit/search-ranking.test.ts checks the result against MiniSearch's own add). Only
   * for a build: nothing may be discarded meanwhile (MiniSearch's vacuum could drop a cached posting from the tree).
   */
  startBuild(): void {
    this.buildPostings = new Map();
  }

  finishBuild(): void {
    this.buildPostings = undefined;
  }

  /** MiniSearch's `add` for one field, with `processTerm` the identity and no stored fields. */
  private addDirectly(document: SearchDocument, postingsOf: Map<string, Map<number, number>>): void {
    const counts = new Map<string, number>();
    for (const term of this.tokenize(document.text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    const shortId = this.internals.addDocumentId(document.id);
    this.internals.addFieldLength(shortId, TEXT, this.internals._documentCount - 1, counts.size);
    for (const [term, count] of counts) {
      let postings = postingsOf.get(term);
      if (!postings) {
        const data = this.internals._index.fetch(term, () => new Map());
        postings = data.get(TEXT);
        if (!postings) data.set(TEXT, (postings = new Map()));
        postingsOf.set(term, postings);
      }
      postings.set(shortId, count);
    }
  }

  replace(document: SearchDocument): void {
    this.discard(document.id);
    this.add(document);
  }

  discard(id: string): void {
    this.finishBuild();
    const shortId = this.internals._idToShortId.get(id);
    if (shortId === undefined) return;
    this.index.discard(id);
    this.lengths[shortId] = 0;
  }

  /**
   * The documents holding every one of `queryTerms`; a term for which `isPrefix` says so also matches as the start of
   * a longer term, weighted less, as MiniSearch's `prefix` option does.
   */
  rank(queryTerms: readonly string[], isPrefix: (term: string, position: number, all: readonly string[]) => boolean, limit: number): Ranking {
    if (queryTerms.length === 0) return { matches: [], total: 0 };
    const specs = queryTerms.map((term, position) => this.derivedTerms(term, isPrefix(term, position, queryTerms)));
    // Every word must match: start from the rarest, so the candidates are few from the start.
    const ordered = specs.map((derived) => ({ derived, size: derived.reduce((sum, item) => sum + item.postings.size, 0) })).sort((a, b) => a.size - b.size);
    if (ordered[0]!.size === 0) return { matches: [], total: 0 };

    if (this.scores.length < this.internals._nextId) {
      this.scores = new Float64Array(this.lengths.length);
      this.matched = new Uint16Array(this.lengths.length);
    }
    const { scores, matched } = this;
    /** Every document scored: the candidates after the first term (the later ones only narrow them). */
    const touched: number[] = [];
    try {
      return this.score(ordered, specs, new Set(queryTerms).size, limit, touched);
    } finally {
      for (const docId of touched) {
        scores[docId] = 0;
        matched[docId] = 0;
      }
    }
  }

  private score(ordered: { derived: DerivedTerm[]; size: number }[], specs: DerivedTerm[][], quality: number, limit: number, touched: number[]): Ranking {
    const { lengths, scores, matched } = this;
    const documentCount = this.internals._documentCount;
    // BM25+'s term-frequency part, k·(1 − b + b·length/average), split into its constant and its per-length factor.
    const lengthFactor = (BM25.k * BM25.b) / this.internals._avgFieldLength[TEXT]!;
    const constant = BM25.k * (1 - BM25.b);
    let candidates = touched;
    for (let position = 0; position < ordered.length; position += 1) {
      const { derived, size } = ordered[position]!;
      const next = position + 1;
      // A later term: look the few candidates up in its postings rather than walk them all, when that is less work.
      const lookUp = position > 0 && candidates.length * derived.length < size;
      for (const { weight, postings } of derived) {
        const scale = weight * Math.log(1 + (documentCount - postings.size + 0.5) / (postings.size + 0.5));
        if (lookUp) {
          for (const docId of candidates) {
            const frequency = postings.get(docId);
            if (frequency === undefined) continue;
            scores[docId] = scores[docId]! + scale * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + constant + lengthFactor * lengths[docId]!));
            matched[docId] = next;
          }
          continue;
        }
        postings.forEach((frequency, docId) => {
          const seen = matched[docId];
          if (seen !== position && seen !== next) return; // missed an earlier term
          const length = lengths[docId]!;
          if (length === 0) return; // discarded, not yet vacuumed
          scores[docId] = scores[docId]! + scale * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + constant + lengthFactor * length));
          if (seen === next) return;
          matched[docId] = next;
          if (position === 0) candidates.push(docId);
        });
      }
      if (position > 0) candidates = candidates.filter((docId) => matched[docId] === next);
      if (candidates.length === 0) return { matches: [], total: 0 };
    }

    // The best `limit`, kept sorted: most candidates are turned away by one comparison with the last.
    const best: number[] = [];
    const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a > b);
    for (const docId of candidates) {
      if (best.length === limit && !better(docId, best[limit - 1]!)) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && better(docId, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at -= 1;
      }
      best[at] = docId;
    }
    const matches = best.map((docId) => ({
      id: this.internals._documentIds.get(docId)!,
      score: scores[docId]! * quality, // MiniSearch multiplies by the number of query terms matched
      terms: [...new Set(specs.flatMap((derived) => derived.filter((item) => item.postings.has(docId)).map((item) => item.term)))],
    }));
    return { matches, total: candidates.length };
  }

  /** The index's terms a query term stands for: itself, and when a prefix every longer term it starts. */
  private derivedTerms(term: string, prefix: boolean): DerivedTerm[] {
    const found: DerivedTerm[] = [];
    const exact = this.internals._index.get(term)?.get(TEXT);
    if (exact) found.push({ term, weight: 1, postings: exact });
    if (!prefix) return found;
    for (const [longer, data] of this.internals._index.atPrefix(term)) {
      const distance = longer.length - term.length;
      const postings = data.get(TEXT);
      if (distance === 0 || !postings) continue;
      found.push({ term: longer, weight: (PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * distance), postings });
    }
    return found;
  }
}

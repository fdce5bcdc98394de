// The terms of the index of search across conversations (search-index.ts): each term's postings, and the terms longer
// than PREFIX_MIN grouped by their first PREFIX_MIN characters, for the word being typed.

/** A longer word matched by the word being typed weighs less than the word itself (MiniSearch's weighting, kept). */
const PREFIX_WEIGHT = 0.375;
/** The word being typed matches as the start of longer words only from this many characters (UTF-16 code units). */
export const PREFIX_MIN = 3;

/** The documents holding one term, in the order they were added (so by document number), and how often each. */
export class Postings {
  readonly documents: number[] = [];
  readonly counts: number[] = [];
  /** How many of `documents` are still indexed; the others are dropped when they are half of them. */
  live = 0;
  constructor(readonly term: string) {}
}

export interface DerivedTerm {
  postings: Postings;
  weight: number;
}

/** The index's terms, each with its postings. */
export class Terms {
  private readonly postings = new Map<string, Postings>();
  /** Terms longer than PREFIX_MIN, by their first PREFIX_MIN characters: the candidates of a typed word's start. */
  private readonly starts = new Map<string, Postings[]>();

  /** A term's postings: made (empty) when the term is new. */
  postingsOf(term: string): Postings {
    return this.postings.get(term) ?? this.newTerm(term);
  }

  /** The index's terms a query term stands for: itself, and when typed every longer term it starts. */
  derived(term: string, typing: boolean): DerivedTerm[] {
    const found: DerivedTerm[] = [];
    const exact = this.postings.get(term);
    if (exact) found.push({ postings: exact, weight: 1 });
    if (!typing || term.length < PREFIX_MIN) return found;
    for (const postings of this.starts.get(term.slice(0, PREFIX_MIN)) ?? []) {
      const longer = postings.term;
      if (longer.length <= term.length || !longer.startsWith(term)) continue;
      const distance = longer.length - term.length;
      found.push({ postings, weight: (PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * distance) });
    }
    return found;
  }

  private newTerm(term: string): Postings {
    const postings = new Postings(term);
    this.postings.set(term, postings);
    if (term.length > PREFIX_MIN) {
      const start = term.slice(0, PREFIX_MIN);
      const group = this.starts.get(start);
      if (group) group.push(postings);
      else this.starts.set(start, [postings]);
    }
    return postings;
  }

  /** Forgets a term no document holds any more. */
  drop(postings: Postings): void {
    this.postings.delete(postings.term);
    if (postings.term.length <= PREFIX_MIN) return;
    const start = postings.term.slice(0, PREFIX_MIN);
    const group = this.starts.get(start)!;
    group.splice(group.indexOf(postings), 1);
    if (group.length === 0) this.starts.delete(start);
  }
}

/** Drops the dead documents (of length 0 in `lengths`) from a term's postings, keeping their order. */
export function compact(postings: Postings, lengths: Float64Array): void {
  const { documents, counts } = postings;
  let kept = 0;
  for (let at = 0; at < documents.length; at += 1) {
    if (lengths[documents[at]!] === 0) continue;
    documents[kept] = documents[at]!;
    counts[kept] = counts[at]!;
    kept += 1;
  }
  documents.length = kept;
  counts.length = kept;
}

/** Where `value` is in the ascending `sorted`, or -1. */
export function indexOf(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sorted[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

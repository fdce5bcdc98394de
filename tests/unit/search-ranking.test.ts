import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { terms } from '../../src/core/search-text';
import { SearchIndex, type SearchDocument } from '../../src/worker/search-ranking';

const isTypedWord = (term: string, index: number, all: readonly string[]) => index === all.length - 1 && term.length >= 3;

/** Indexed as the conversation search builds it (postings written directly), or `added` one by one by MiniSearch. */
function indexOf(documents: SearchDocument[], added: readonly SearchDocument[] = []): SearchIndex {
  const index = new SearchIndex(MiniSearch, (text) => terms(text));
  index.startBuild();
  for (const document of documents) index.add(document);
  index.finishBuild();
  for (const document of added) index.add(document);
  return index;
}

/** MiniSearch's own answer, from its own index: every word, the last also as a prefix. */
function theirs(documents: readonly SearchDocument[], query: string) {
  const index = new MiniSearch<SearchDocument>({ fields: ['text'], storeFields: [], tokenize: (text) => terms(text), searchOptions: { tokenize: (text) => terms(text, true) } });
  index.addAll(documents);
  return index.search(query, { prefix: isTypedWord, combineWith: 'AND' });
}

/** Few words, some sharing their start, so that queries match many documents, ties and prefixes are common. */
const WORDS = ['tea', 'team', 'teapot', 'teal', 'tomato', 'tom', 'lisbon', 'list', 'a', 'the', '中文', '简体中文', '写作'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
const query = fc.oneof(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), fc.constantFrom('te', 'tea', 'tom', 'lis', 'tea lis', '中', '体中'));

describe('SearchIndex.rank (the best few matches read from the MiniSearch index)', () => {
  it("gives MiniSearch's own scores, matched terms and number of matches, best first", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 60 }), fc.nat(), fc.array(query, { maxLength: 2 }), query, fc.integer({ min: 1, max: 8 }), (texts, split, earlier, wanted, limit) => {
        const documents = texts.map((body, position) => ({ id: `d${position}`, text: body }));
        // Some built at once, the rest added afterwards (messages written after the first search).
        const built = split % (documents.length + 1);
        const index = indexOf(documents.slice(0, built), documents.slice(built));
        for (const asked of earlier) index.rank(terms(asked, true), isTypedWord, limit); // nothing of a query is left for the next
        const expected = theirs(documents, wanted);
        const { matches, total } = index.rank(terms(wanted, true), isTypedWord, limit);
        expect(total).toBe(expected.length);
        expect(matches).toHaveLength(Math.min(limit, expected.length));
        // Equal scores may be ordered differently: the scores in order, and each document's own score, must agree.
        matches.forEach((match, position) => {
          expect(match.score).toBeCloseTo(expected[position]!.score, 9);
          const same = expected.find((result) => result.id === match.id)!;
          expect(match.score).toBeCloseTo(same.score, 9);
          expect(new Set(match.terms)).toEqual(new Set(same.terms));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('ranks the better match first, and the last word typed matches as the start of a word', () => {
    const index = indexOf([
      { id: 'once', text: 'a long message that mentions tomatoes once among many other words of no interest' },
      { id: 'often', text: 'tomatoes tomatoes tomatoes' },
      { id: 'none', text: 'cucumbers' },
    ]);
    expect(index.rank(terms('tomatoes', true), isTypedWord, 10).matches.map((match) => match.id)).toEqual(['often', 'once']);
    const typing = index.rank(terms('tom', true), isTypedWord, 10).matches;
    expect(typing.map((match) => match.id)).toEqual(['often', 'once']);
    expect(typing[0]!.terms).toEqual(['tomatoes']);
    // Only the last word is a prefix: "tom" before another word must be a whole word.
    expect(index.rank(terms('tom cucumbers', true), isTypedWord, 10).total).toBe(0);
  });

  it('never returns a document replaced or discarded since it was indexed', () => {
    const index = indexOf([
      { id: 'kept', text: 'harbour at dawn' },
      { id: 'changed', text: 'harbour at noon' },
      { id: 'gone', text: 'harbour at dusk' },
    ]);
    index.replace({ id: 'changed', text: 'a field at noon' });
    index.discard('gone');
    expect(index.rank(['harbour'], isTypedWord, 10).matches.map((match) => match.id)).toEqual(['kept']);
    expect(index.rank(['noon'], isTypedWord, 10).matches.map((match) => match.id)).toEqual(['changed']);
    expect(index.rank(['dusk'], isTypedWord, 10)).toEqual({ matches: [], total: 0 });
  });

  it('keeps the best `limit` among many equal and unequal scores', () => {
    const documents = Array.from({ length: 500 }, (_, position) => ({ id: `d${position}`, text: `word ${'filler '.repeat(position % 7)}${position % 50 === 0 ? 'word word' : ''}` }));
    const index = indexOf(documents);
    const { matches, total } = index.rank(['word'], isTypedWord, 20);
    expect(total).toBe(500);
    const expected = theirs(documents, 'word');
    expect(matches.map((match) => match.score)).toEqual(expected.slice(0, 20).map((result) => expect.closeTo(result.score, 9)));
    expect(matches.slice(0, 10).every((match) => Number(match.id.slice(1)) % 50 === 0)).toBe(true);
  });
});

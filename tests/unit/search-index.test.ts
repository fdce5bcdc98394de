import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terms } from '../../src/core/search-text';
import { PREFIX_MIN, SearchIndex, type IndexedDocument } from '../../src/worker/search/search-index';

interface Written {
  id: string;
  conversationId: string;
  title: boolean;
  text: string;
}

const documentOf = (written: Written): IndexedDocument => ({ ...written, terms: terms(written.text) });

/**
 * The ranking computed the slow, obvious way from the documents still indexed (in the order they were last written):
 * BM25+ over distinct-term lengths, every query word required, the last one typed also matching longer words.
 */
function reference(live: readonly Written[], query: string) {
  const bags = live.map((written) => {
    const counts = new Map<string, number>();
    for (const term of terms(written.text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const average = bags.reduce((sum, bag) => sum + bag.size, 0) / live.length;
  const frequency = (term: string) => bags.filter((bag) => bag.has(term)).length;
  const vocabulary = new Set(bags.flatMap((bag) => [...bag.keys()]));
  const queryTerms = terms(query, true);
  const scored = live.map((written, position) => {
    const bag = bags[position]!;
    let score = 0;
    const matched = new Set<string>();
    const holdsAll = queryTerms.every((queryTerm, at) => {
      const typed = at === queryTerms.length - 1 && queryTerm.length >= PREFIX_MIN;
      const derived = [[queryTerm, 1] as const, ...[...vocabulary].filter((term) => typed && term.length > queryTerm.length && term.startsWith(queryTerm)).map((term) => [term, (0.375 * term.length) / (term.length + 0.3 * (term.length - queryTerm.length))] as const)];
      let any = false;
      for (const [term, weight] of derived) {
        const count = bag.get(term);
        if (count === undefined) continue;
        any = true;
        matched.add(term);
        const df = frequency(term);
        const idf = Math.log(1 + (live.length - df + 0.5) / (df + 0.5));
        score += weight * idf * (0.5 + (count * 2.2) / (count + 1.2 * (1 - 0.7 + (0.7 * bag.size) / average)));
      }
      return any;
    });
    return { written, score, matched, holdsAll };
  });
  const byConversation = new Map<string, { score: number; best?: (typeof scored)[number]; title?: (typeof scored)[number]; messages: number }>();
  for (const hit of scored.filter((item) => item.holdsAll)) {
    const entry = byConversation.get(hit.written.conversationId) ?? { score: 0, messages: 0 };
    byConversation.set(hit.written.conversationId, entry);
    entry.score = Math.max(entry.score, hit.score);
    if (hit.written.title) entry.title = hit;
    else {
      entry.messages += 1;
      if (!entry.best || hit.score >= entry.best.score) entry.best = hit; // later written wins a tie
    }
  }
  return byConversation;
}

const WORDS = ['tea', 'team', 'teapot', 'teal', 'tomato', 'tom', 'lisbon', 'list', 'a', 'the', '中文', '简体中文', '写作'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 10 }).map((words) => words.join(' '));
const query = fc.oneof(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), fc.constantFrom('te', 'tea', 'tom', 'lis', 'tea lis', '中', '体中'));
/** Writes (a message, or a conversation's title), discards of a message and of a whole conversation. */
const operation = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('write' as const), key: fc.nat(24), text }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('discard' as const), key: fc.nat(24) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('drop' as const), key: fc.nat(3) }), weight: 1 },
);
/** Keys 0–19 are messages of conversation key % 4; 20–23 the titles of conversations 0–3. */
const idOf = (key: number) => (key >= 20 ? `title:c${key - 20}` : `m${key}`);
const conversationOf = (key: number) => `c${key >= 20 ? key - 20 : key % 4}`;

function apply(operations: readonly { kind: string; key: number; text?: string }[]) {
  const index = new SearchIndex();
  let live: Written[] = [];
  for (const step of operations) {
    if (step.kind === 'write') {
      const written = { id: idOf(step.key), conversationId: conversationOf(step.key), title: step.key >= 20, text: step.text! };
      live = [...live.filter((item) => item.id !== written.id), written];
      index.add(documentOf(written));
    } else if (step.kind === 'discard') {
      live = live.filter((item) => item.id !== idOf(step.key));
      index.discard(idOf(step.key));
    } else {
      live = live.filter((item) => item.conversationId !== `c${step.key}`);
      index.discardConversation(`c${step.key}`);
    }
  }
  return { index, live };
}

describe('SearchIndex (search across conversations)', () => {
  it('ranks conversations as the obvious computation does, through writes, replacements and discards', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 80 }), fc.array(query, { maxLength: 2 }), query, fc.integer({ min: 1, max: 5 }), (operations, earlier, wanted, limit) => {
        const { index, live } = apply(operations);
        for (const asked of earlier) index.rank(terms(asked, true), true, limit); // nothing of a query is left for the next
        const expected = reference(live, wanted);
        const { conversations, total } = index.rank(terms(wanted, true), true, limit);
        expect(total).toBe(expected.size);
        expect(conversations).toHaveLength(Math.min(limit, expected.size));
        const scores = [...expected.values()].map((entry) => entry.score).sort((a, b) => b - a);
        conversations.forEach((found, position) => {
          // Equal scores may be ordered differently: the scores in order, and each conversation's own, must agree.
          expect(found.score).toBeCloseTo(scores[position]!, 9);
          const same = expected.get(found.conversationId)!;
          expect(found.score).toBeCloseTo(same.score, 9);
          expect(found.messages).toBe(same.messages);
          expect(found.best?.id).toBe(same.best?.written.id);
          if (found.best) expect(found.best.score).toBeCloseTo(same.best!.score, 9);
          expect(new Set(found.best?.terms)).toEqual(same.best?.matched ?? new Set());
          expect(found.title?.id).toBe(same.title?.written.id);
          expect(new Set(found.title?.terms)).toEqual(same.title?.matched ?? new Set());
        });
        expect(index.documentCount).toBe(live.length);
      }),
      { numRuns: 300 },
    );
  });

  it('ranks the better match first, and the last word typed matches as the start of a word', () => {
    const index = new SearchIndex();
    index.add(documentOf({ id: 'once', conversationId: 'a', title: false, text: 'a long message that mentions tomatoes once among many other words of no interest' }));
    index.add(documentOf({ id: 'often', conversationId: 'b', title: false, text: 'tomatoes tomatoes tomatoes' }));
    index.add(documentOf({ id: 'none', conversationId: 'c', title: false, text: 'cucumbers' }));
    expect(index.rank(terms('tomatoes', true), true, 10).conversations.map((found) => found.best?.id)).toEqual(['often', 'once']);
    const typing = index.rank(terms('tom', true), true, 10).conversations;
    expect(typing.map((found) => found.best?.id)).toEqual(['often', 'once']);
    expect(typing[0]!.best!.terms).toEqual(['tomatoes']);
    // Only the last word is a prefix, and only when typing: "tom" before another word must be a whole word.
    expect(index.rank(terms('tom cucumbers', true), true, 10).total).toBe(0);
    expect(index.rank(terms('tom', true), false, 10).total).toBe(0);
  });

  it('gives one entry per conversation: its best message, how many match, and its title when that matches too', () => {
    const index = new SearchIndex();
    index.add(documentOf({ id: 'title:trip', conversationId: 'trip', title: true, text: 'Trip to Lisbon in May' }));
    index.add(documentOf({ id: 'm1', conversationId: 'trip', title: false, text: 'Plan a trip to Lisbon in May' }));
    index.add(documentOf({ id: 'm2', conversationId: 'trip', title: false, text: 'Lisbon Lisbon Lisbon: trams, hills and tiles' }));
    index.add(documentOf({ id: 'm3', conversationId: 'trip', title: false, text: 'Lisbon in May is warm' }));
    index.add(documentOf({ id: 'm4', conversationId: 'other', title: false, text: 'Porto, not Lisbon' }));
    const { conversations, total } = index.rank(['lisbon'], true, 10);
    expect(total).toBe(2);
    expect(conversations[0]).toMatchObject({ conversationId: 'trip', messages: 3, best: { id: 'm2', terms: ['lisbon'] }, title: { id: 'title:trip' } });
    expect(conversations[1]).toMatchObject({ conversationId: 'other', messages: 1, best: { id: 'm4' } });
    expect(conversations[1]!.title).toBeUndefined();
    expect(index.messageIdsOf('trip').sort()).toEqual(['m1', 'm2', 'm3']);
    // Every word must match within one document.
    expect(index.rank(['tiles', 'hills'], true, 10).conversations[0]).toMatchObject({ messages: 1, best: { id: 'm2' } });
    expect(index.rank(['tiles', 'may'], true, 10).total).toBe(0);
    // A conversation found by its title alone has no best message.
    expect(index.rank(['trip'], true, 10).conversations[0]).toMatchObject({ messages: 1, best: { id: 'm1' } });
    index.discard('m1');
    expect(index.rank(['trip'], true, 10).conversations[0]).toMatchObject({ messages: 0, best: undefined, title: { id: 'title:trip' } });
  });

  it('never returns a document replaced or discarded since it was indexed, however many come and go', () => {
    const index = new SearchIndex();
    for (let round = 0; round < 50; round += 1) {
      for (let key = 0; key < 20; key += 1) index.add(documentOf({ id: `m${key}`, conversationId: `c${key}`, title: false, text: `harbour round${round}` }));
    }
    for (let key = 0; key < 15; key += 1) index.discard(`m${key}`);
    index.discardConversation('c15');
    const { conversations, total } = index.rank(['harbour'], true, 20);
    expect(total).toBe(4);
    expect(conversations.map((found) => found.best?.id).sort()).toEqual(['m16', 'm17', 'm18', 'm19']);
    expect(index.rank(['round48'], true, 20).total).toBe(0);
    expect(index.rank(['round49'], true, 20).total).toBe(4);
    expect(index.rank(['rou'], true, 20).conversations.map((found) => found.best?.terms)).toEqual(Array(4).fill(['round49']));
    expect(index.documentCount).toBe(4);
  });

  it('keeps the best `limit` among many equal and unequal scores', () => {
    const index = new SearchIndex();
    const written = Array.from({ length: 500 }, (_, position) => ({ id: `d${position}`, conversationId: `c${position}`, title: false, text: `word ${'filler '.repeat(position % 7)}${position % 50 === 0 ? 'word word' : ''}` }));
    for (const item of written) index.add(documentOf(item));
    const { conversations, total } = index.rank(['word'], true, 20);
    expect(total).toBe(500);
    const expected = [...reference(written, 'word').values()].map((entry) => entry.score).sort((a, b) => b - a);
    expect(conversations.map((found) => found.score)).toEqual(expected.slice(0, 20).map((score) => expect.closeTo(score, 9)));
    expect(conversations.slice(0, 10).every((found) => Number(found.best!.id.slice(1)) % 50 === 0)).toBe(true);
  });

  it("looks a rare word's few documents up in a common word's postings, with the same scores", () => {
    const index = new SearchIndex();
    const written = Array.from({ length: 600 }, (_, position) => ({
      id: `d${position}`,
      conversationId: `c${position % 150}`,
      title: false,
      text: `common ${position % 3 === 0 ? 'common' : 'other'} ${[7, 300, 301, 599].includes(position) ? 'rare' : ''}`,
    }));
    for (const item of written) index.add(documentOf(item));
    for (const item of written.slice(0, 100)) index.discard(item.id); // postings with dead documents in them
    const live = written.slice(100);
    for (const wanted of ['common rare', 'rare common', 'other rare com']) {
      const expected = reference(live, wanted);
      const { conversations, total } = index.rank(terms(wanted, true), true, 10);
      expect(total, wanted).toBe(expected.size);
      for (const found of conversations) {
        expect(found.score).toBeCloseTo(expected.get(found.conversationId)!.score, 9);
        expect(found.messages).toBe(expected.get(found.conversationId)!.messages);
      }
    }
    expect(index.rank(terms('common rare', true), true, 10).conversations.map((found) => found.best!.id).sort()).toEqual(['d300', 'd301', 'd599']);
  });
});

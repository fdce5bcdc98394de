import { describe, expect, it } from 'vitest';
import { countOccurrences, findOccurrences } from '../../src/schema/search/find-matches';

describe('Find in conversation: matching', () => {
  it('finds every occurrence, case-insensitively, with its place in the text', () => {
    const text = 'Three things: three, and Three again (THREEFOLD).';
    expect(findOccurrences(text, 'three')).toEqual([[0, 5], [14, 19], [25, 30], [38, 43]]);
    expect(findOccurrences(text, 'THREE').map(([start, end]) => text.slice(start, end))).toEqual(['Three', 'three', 'Three', 'THREE']);
  });

  it('counts matches that would overlap once each, left to right, as a browser finds them', () => {
    expect(countOccurrences('aaaa', 'aa')).toBe(2);
    expect(countOccurrences('aaa', 'aa')).toBe(1);
    expect(findOccurrences('abababa', 'aba')).toEqual([[0, 3], [4, 7]]);
  });

  it('finds Chinese text, which has no spaces between words', () => {
    const text = '我喜欢用简体中文写作。中文很美，简体中文也是。';
    expect(findOccurrences(text, '中文')).toEqual([[6, 8], [11, 13], [18, 20]]);
    expect(countOccurrences(text, '简体中文写作')).toBe(1);
  });

  it('keeps the places right when lower case changes the length of a character', () => {
    // "İ" (U+0130) is two code units in lower case: the match after it must still point at "Ab" in the original text.
    const text = 'İstanbul: Ab, ab';
    expect(findOccurrences(text, 'ab').map(([start, end]) => text.slice(start, end))).toEqual(['Ab', 'ab']);
    expect(findOccurrences(text, 'i̇stanbul')).toEqual([[0, 8]]);
  });

  it('finds nothing for an empty query or in empty text', () => {
    expect(findOccurrences('something', '')).toEqual([]);
    expect(findOccurrences('', 'x')).toEqual([]);
  });
});

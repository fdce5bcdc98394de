import type { SearchSnippet, TextRange } from '../schema/protocol';

// How search across conversations cuts text into terms and shows a match: pure, shared by the index and its tests.

/** Scripts written without spaces between words: cut into characters and pairs of characters, not words. */
const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const TOKEN = new RegExp(`([${UNSPACED}]+)|[^\\s\\p{P}\\p{S}${UNSPACED}]+`, 'gu');
/** Characters of a snippet before its first match and in all. */
const SNIPPET_LEAD = 40;
const SNIPPET_LENGTH = 180;

/** A term and where it stands in the text. */
export interface Token {
  term: string;
  start: number;
  end: number;
}

/**
 * The terms of `text` with their places, lower-cased. Words are split on spaces and punctuation; a run of Chinese (or
 * Japanese, Korean) characters gives each character and each pair of neighbours, so "简体中文" is found by "中文" or "体".
 * When `forQuery`, such a run of two or more gives only its pairs: every pair must match, as every word must.
 */
export function tokens(text: string, forQuery = false): Token[] {
  const found: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    if (!match[1]) {
      found.push({ term: match[0].toLowerCase(), start, end: start + match[0].length });
      continue;
    }
    const characters = Array.from(match[1]);
    let offset = start;
    for (let index = 0; index < characters.length; index += 1) {
      const character = characters[index]!;
      const next = characters[index + 1];
      if (!forQuery || characters.length === 1) found.push({ term: character, start: offset, end: offset + character.length });
      if (next !== undefined) found.push({ term: character + next, start: offset, end: offset + character.length + next.length });
      offset += character.length;
    }
  }
  return found;
}

/** The terms alone, as the index's tokenizer wants them. */
export function terms(text: string, forQuery = false): string[] {
  return tokens(text, forQuery).map((token) => token.term);
}

/** The places of every term of `text` in `matched` (merged where they touch, in order). */
export function matchRanges(text: string, matched: ReadonlySet<string>): TextRange[] {
  const ranges: TextRange[] = [];
  for (const token of tokens(text)) {
    if (!matched.has(token.term)) continue;
    const last = ranges.at(-1);
    if (last && token.start <= last.end) last.end = Math.max(last.end, token.end);
    else ranges.push({ start: token.start, end: token.end });
  }
  return ranges;
}

/**
 * A piece of `text` around its first term in `matched`, with the places of every matched term in the piece. The UI
 * draws the ranges as marks; no markup is ever made from the text here.
 */
export function snippetOf(text: string, matched: ReadonlySet<string>): SearchSnippet {
  const ranges = matchRanges(text, matched);
  let from = Math.max(0, (ranges[0]?.start ?? 0) - SNIPPET_LEAD);
  let to = Math.min(text.length, from + SNIPPET_LENGTH);
  // Never cut a character in two (a surrogate pair).
  if (isLowSurrogate(text.charCodeAt(from))) from += 1;
  if (isLowSurrogate(text.charCodeAt(to))) to -= 1;
  const before = from > 0 ? '…' : '';
  const after = to < text.length ? '…' : '';
  const shift = before.length - from;
  const inside = ranges.filter((range) => range.start >= from && range.end <= to).map((range) => ({ start: range.start + shift, end: range.end + shift }));
  return { text: before + text.slice(from, to).replace(/\s/g, ' ') + after, ranges: inside };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * How "Find in conversation" matches text, shared by the worker (which counts the matches of every stored message)
 * and the page (which highlights the ones shown), so that the count and the highlights agree.
 */

/** One message's matches, as the worker reports them: `count` occurrences in the message with this seq. */
export interface MessageMatches {
  seq: number;
  count: number;
}

/**
 * Where `query` occurs in `text`, as [start, end) offsets into `text`: case-insensitively (Unicode lower case, the
 * same in every language), left to right and not overlapping, as a browser's own find counts ("aa" is twice in
 * "aaaa", not three times). An empty query occurs nowhere.
 */
export function findOccurrences(text: string, query: string): Array<[number, number]> {
  const needle = query.toLowerCase();
  if (needle === '' || text.length === 0) return [];
  const lower = text.toLowerCase();
  const found: Array<[number, number]> = [];
  if (lower.length === text.length) {
    // Almost all text: lower case keeps every offset, so the offsets found in `lower` are those of `text`.
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) found.push([at, at + needle.length]);
    return found;
  }
  // A character whose lower case is longer or shorter ("İ" is two code units in lower case): map offsets back.
  const { folded, origin } = foldWithOffsets(text);
  for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + needle.length)) {
    found.push([origin[at]!, origin[at + needle.length] ?? text.length]);
  }
  return found;
}

/** How many times `query` occurs in `text`, counted as `findOccurrences` finds them. */
export function countOccurrences(text: string, query: string): number {
  return findOccurrences(text, query).length;
}

/** `text` in lower case one character at a time, with the offset in `text` of each code unit of the result. */
function foldWithOffsets(text: string): { folded: string; origin: number[] } {
  const parts: string[] = [];
  const origin: number[] = [];
  let offset = 0;
  for (const character of text) {
    const lower = character.toLowerCase();
    parts.push(lower);
    for (let unit = 0; unit < lower.length; unit += 1) origin.push(offset);
    offset += character.length;
  }
  return { folded: parts.join(''), origin };
}

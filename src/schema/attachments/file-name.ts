/**
 * The characters that reorder the text around them (embeddings, overrides, isolates, marks): U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F and U+061C. In a file name they can only disguise it: "report\u202Etxt.pdf" shows as
 * "reportfdp.txt".
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A file's name as it is shown, to the user and to the model: each bidi control replaced by its code point in plain
 * sight ("report⟨U+202E⟩txt.pdf"), so nothing in the name can reverse what follows it. Other characters are kept.
 */
export function visibleFileName(name: string): string {
  return name.replace(BIDI_CONTROLS, (control) => `⟨U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

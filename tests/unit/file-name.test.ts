import { describe, expect, it } from 'vitest';
import { visibleFileName } from '../../src/schema/attachments/file-name';

describe('visibleFileName (a name cannot disguise itself with bidi controls)', () => {
  it('shows a right-to-left override as its code point, so "reporttxt.pdf" cannot pass for a text file', () => {
    expect(visibleFileName('report\u202Etxt.pdf')).toBe('report⟨U+202E⟩txt.pdf');
  });

  it('shows every embedding, override, isolate and mark, and nothing else', () => {
    const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
    expect(visibleFileName(controls.join('x'))).toBe('⟨U+202A⟩x⟨U+202B⟩x⟨U+202C⟩x⟨U+202D⟩x⟨U+202E⟩x⟨U+2066⟩x⟨U+2067⟩x⟨U+2068⟩x⟨U+2069⟩x⟨U+200E⟩x⟨U+200F⟩x⟨U+061C⟩');
    expect(visibleFileName('שלום notes — 笔记 (1).md')).toBe('שלום notes — 笔记 (1).md');
  });
});

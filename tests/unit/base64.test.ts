import { afterEach, describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../../src/core/base64';

// The browser's own Uint8Array.prototype.toBase64 / Uint8Array.fromBase64 are used where present (Chromium has them;
// Node 20 has not, so the fallback runs here by default): both give what Node's Buffer gives.

const prototype = Uint8Array.prototype as unknown as { toBase64?: () => string };
const constructor = Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array };

afterEach(() => {
  delete prototype.toBase64;
  delete constructor.fromBase64;
});

describe('base64', () => {
  const bytes = new Uint8Array(200_000).map((_, index) => (index * 7919) % 256);
  const expected = Buffer.from(bytes).toString('base64');

  it('without the native methods: the same text as Buffer, and back, for 200 KB (past the 32 KB slices)', () => {
    expect(toBase64(bytes)).toBe(expected);
    expect(fromBase64(expected)).toEqual(bytes);
    expect(toBase64(new Uint8Array(0))).toBe('');
  });

  it('with them: the native methods do the work', () => {
    const calls: string[] = [];
    prototype.toBase64 = function (this: Uint8Array) {
      calls.push('to');
      return Buffer.from(this).toString('base64');
    };
    constructor.fromBase64 = (text) => {
      calls.push('from');
      return new Uint8Array(Buffer.from(text, 'base64'));
    };
    expect(toBase64(bytes)).toBe(expected);
    expect(fromBase64(expected)).toEqual(bytes);
    expect(calls).toEqual(['to', 'from']);
  });

  it('a text the strict native decoder refuses is decoded as atob decodes it', () => {
    constructor.fromBase64 = () => {
      throw new SyntaxError('strict');
    };
    expect(fromBase64('AAE')).toEqual(new Uint8Array([0, 1]));
    expect(() => fromBase64('not base64!')).toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { uniqueProfileNames } from '../../src/core/profile-names';

describe('uniqueProfileNames (a backup never adds a second profile of one name)', () => {
  it('keeps a free name and suffixes a taken one, whatever its case or spaces', () => {
    expect(uniqueProfileNames(['MyOpenAI', 'Built-in demo'], ['Work', 'MyOpenAI', ' myopenai '])).toEqual(['Work', 'MyOpenAI (2)', ' myopenai (3)']);
  });

  it('takes the first free number, also among names the file itself repeats', () => {
    expect(uniqueProfileNames(['A', 'A (2)'], ['A', 'A', 'A (3)'])).toEqual(['A (3)', 'A (4)', 'A (3) (2)']);
  });

  it('stays within the longest name a profile may have', () => {
    const long = 'x'.repeat(80);
    const [renamed] = uniqueProfileNames([long], [long]);
    expect(renamed).toHaveLength(80);
    expect(renamed!.endsWith(' (2)')).toBe(true);
  });
});

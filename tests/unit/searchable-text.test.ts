import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/schema/messages/blocks';
import { countInMessage, searchableParts, searchableText } from '../../src/schema/search/searchable-text';

const blocks: Block[] = [
  { type: 'reasoning', text: 'Thinking about sun' },
  { type: 'tool_call', toolCallId: 'call-1', toolName: 'lookup_sun', args: { query: 'sun' }, status: 'success', result: 'sun facts' },
  { type: 'text', text: 'The answer: sun' },
  { type: 'text', text: 'flower' },
  { type: 'error', code: 'x', message: 'sun error' },
];

describe('what a message says (searchable text)', () => {
  it('is its text and reasoning, in order, a line break between blocks', () => {
    expect(searchableParts({ blocks })).toEqual(['Thinking about sun', 'The answer: sun', 'flower']);
    expect(searchableText({ blocks })).toBe('Thinking about sun\nThe answer: sun\nflower');
  });

  it('is what Find counts in, block by block: no match spans two blocks', () => {
    expect(countInMessage({ blocks }, 'sun')).toBe(2);
    expect(searchableText({ blocks })).toContain('sun\nflower');
    expect(countInMessage({ blocks }, 'sun\nflower')).toBe(0);
    expect(countInMessage({ blocks }, 'facts')).toBe(0);
  });
});

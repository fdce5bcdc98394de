import type { Block } from './blocks';

/**
 * A block that holds prose: any kind whose `text` is a string (a reply's text, reasoning). Search finds it, and the
 * worker sends a long one to the page clipped (`clippedFrom`), so a new prose kind needs no code here or there.
 */
type ProseBlock = Extract<Block, { text: string }>;

export function isProse(block: Block): block is ProseBlock {
  return 'text' in block && typeof block.text === 'string';
}

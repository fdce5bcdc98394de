import { countOccurrences } from './find-matches';
import type { Message } from '../records';
import { isProse } from '../messages/prose';

// What a message says, as both searches read it: search across conversations indexes it, Find in conversation counts
// in it (in the worker, and in the page for the messages it holds), so the two never disagree on a message. See README
// "Search across conversations" and the "Find in conversation" row of "Accessible names".

/**
 * The message's searchable parts, in order: the text of its text blocks (the reply, your message) and of its reasoning
 * blocks, as the conversation shows them. A tool call's arguments and result, a question's form and an attached
 * file's name are not part of what it says.
 */
export function searchableParts(message: Pick<Message, 'blocks'>): string[] {
  const parts: string[] = [];
  for (const block of message.blocks) if (isProse(block)) parts.push(block.text);
  return parts;
}

/** The searchable parts as one text, a line break between two (a word ends where a block ends). */
export function searchableText(message: Pick<Message, 'blocks'>): string {
  return searchableParts(message).join('\n');
}

/**
 * How many times Find finds `query` in the message: counted part by part, so no match spans two blocks (the page
 * highlights block by block).
 */
export function countInMessage(message: Pick<Message, 'blocks'>, query: string): number {
  return searchableParts(message).reduce((sum, part) => sum + countOccurrences(part, query), 0);
}

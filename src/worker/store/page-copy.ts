import type { Block } from '../../schema/messages/blocks';
import { PAGE_TEXT_LIMIT } from '../../schema/limits';
import { isProse } from '../../schema/messages/prose';

/**
 * What the worker sends to the page, with every prose block (text, reasoning: `isProse`) of a message cut at PAGE_TEXT_LIMIT (and
 * `clippedFrom` saying how long it is): the page never renders more, and a 100 MB message copied into it whole held its
 * main thread on every open. Messages are found where replies and events carry them (`message`, `messages`); values
 * without such a block are returned as they are, so the usual reply costs one look.
 */
export function clipForPage<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const record = value as { message?: unknown; messages?: unknown };
  let changed: Record<string, unknown> | undefined;
  if (isMessage(record.message)) {
    const message = clipMessage(record.message);
    if (message !== record.message) changed = { ...record, message };
  }
  if (Array.isArray(record.messages)) {
    const messages = record.messages.map((message: unknown) => (isMessage(message) ? clipMessage(message) : message));
    if (messages.some((message, index) => message !== (record.messages as unknown[])[index])) changed = { ...(changed ?? record), messages };
  }
  return (changed ?? value) as T;
}

interface BlocksHolder {
  blocks: Block[];
}

function isMessage(value: unknown): value is BlocksHolder {
  return typeof value === 'object' && value !== null && Array.isArray((value as { blocks?: unknown }).blocks);
}

function clipMessage<M extends BlocksHolder>(message: M): M {
  if (!message.blocks.some(tooLong)) return message;
  const blocks = message.blocks.map((block) => (tooLong(block) && isProse(block) ? { ...block, text: block.text.slice(0, cutAt(block.text)), clippedFrom: block.text.length } : block));
  return { ...message, blocks };
}

/** PAGE_TEXT_LIMIT, or one less where that would split a surrogate pair. */
function cutAt(text: string): number {
  return (text.charCodeAt(PAGE_TEXT_LIMIT - 1) & 0xfc00) === 0xd800 ? PAGE_TEXT_LIMIT - 1 : PAGE_TEXT_LIMIT;
}

function tooLong(block: Block): boolean {
  return isProse(block) && block.text.length > PAGE_TEXT_LIMIT;
}

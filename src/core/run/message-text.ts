import type { Message } from '../../schema/records';

/** The message's visible text: its text blocks joined. */
export function messageText(message: Message): string {
  return message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Appends streamed text to the message's last block of that kind, or starts a new block. Mutates the message. */
export function appendDelta(message: Message, kind: 'text' | 'reasoning', text: string): void {
  const last = message.blocks.at(-1);
  if (last && last.type === kind) last.text += text;
  else message.blocks.push({ type: kind, text });
}

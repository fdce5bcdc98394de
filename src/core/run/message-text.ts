import type { Message } from '../../schema/records';
import type { ReceivedToolCall } from '../tools/tool-calls';
import type { ModelPart } from './model';

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

/** Adds a streamed part to the reply; true when it is something the model produced (text, reasoning, a call). */
export function takePart(message: Message, calls: ReceivedToolCall[], part: ModelPart): boolean {
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
    appendDelta(message, part.type === 'text-delta' ? 'text' : 'reasoning', part.text);
    return true;
  }
  if (part.type === 'tool-call') {
    calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    return true;
  }
  if (part.type === 'notice') {
    // Once per reply: a step tried again, or a reply continued, says it again.
    const notices = message.notices ?? [];
    if (!notices.some((notice) => notice.key === part.notice.key)) message.notices = [...notices, part.notice];
  } else if (part.usage) {
    message.usage = part.usage;
  }
  return false;
}

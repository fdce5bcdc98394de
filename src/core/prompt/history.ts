import type { AttachmentMeta } from '../../schema/attachments/attachments';
import type { Block, ToolCallBlock } from '../../schema/messages/blocks';
import type { Message } from '../../schema/records';
import { visibleFileName } from '../../schema/attachments/file-name';
import type { AttachmentContent, HistoryExchange, PromptAssistantPart, PromptMessage, PromptToolResult, PromptUserPart } from '../run/model';
import { requestInHistory } from '../requests/requests';

/** How a block of an assistant message appears in the history: text, a tool exchange, or nothing. */
type BlockHistory = { kind: 'text'; text: string } | { kind: 'exchange'; exchange: HistoryExchange } | undefined;

/**
 * Each block kind's history form (`toHistory`). Reasoning and errors are never sent back; a call not finished yet is
 * not sent at all (a provider rejects a call that has no result). A request is shown as its kind says (`toHistory` of
 * its descriptor, core/requests/requests.ts): a question as its tool's call; an approval and a form by their call's result.
 */
const TO_HISTORY: { [Kind in Block['type']]: (block: Extract<Block, { type: Kind }>) => BlockHistory } = {
  text: (block) => (block.text === '' ? undefined : { kind: 'text', text: block.text }),
  reasoning: () => undefined,
  error: () => undefined,
  tool_call: toolCallInHistory,
  request: (block) => {
    const exchange = requestInHistory(block);
    return exchange && { kind: 'exchange', exchange };
  },
};

/** A block's history form (see TO_HISTORY). */
function blockHistory(block: Block): BlockHistory {
  return (TO_HISTORY[block.type] as (block: Block) => BlockHistory)(block);
}

function toolCallInHistory(block: ToolCallBlock): BlockHistory {
  if (block.status === 'pending' || block.status === 'running' || block.result === undefined) return undefined;
  // The model is told what really ran: after an edit, `args` are the user's (and the result says so).
  return {
    kind: 'exchange',
    exchange: {
      toolCallId: block.toolCallId,
      toolName: block.toolName,
      input: asToolInput(block.originalArgs ?? block.args),
      output: block.status === 'success' ? { type: 'text', value: block.result } : { type: 'error-text', value: block.result },
    },
  };
}

/**
 * Stored messages → the prompt's messages, oldest first:
 * - user text (its text blocks a paragraph apart), then its files (`attachments`, their contents read back for this
 *   step): a text file as a text part holding its name and text, an image as a file part; a file no longer stored, or
 *   not here yet, is named in a text part that says so;
 * - each assistant block in its history form (see TO_HISTORY): a tool exchange is a tool-call part, then a tool message
 *   holding its result right after that assistant message. Each tool call id is sent once.
 */
export function toPromptMessages(history: readonly Message[], attachments?: ReadonlyMap<string, AttachmentContent>): PromptMessage[] {
  const messages: PromptMessage[] = [];
  const sentCallIds = new Set<string>();
  for (const message of history) {
    if (message.role === 'user') {
      const user = userMessage(message, attachments);
      if (user) messages.push(user);
      continue;
    }
    messages.push(...assistantTurns(message.blocks, sentCallIds));
  }
  return messages;
}

function userMessage(message: Message, attachments: ReadonlyMap<string, AttachmentContent> | undefined): PromptMessage | undefined {
  const text = message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
  const files = message.attachments ?? [];
  if (files.length === 0) return text.trim() !== '' ? { role: 'user', content: text } : undefined;
  const content: PromptUserPart[] = text.trim() !== '' ? [{ type: 'text', text }] : [];
  for (const file of files) content.push(attachmentPart(file, attachments?.get(file.id)));
  return { role: 'user', content };
}

/**
 * One stored assistant message can hold several steps (text, calls, more text…). Each run of text followed by calls
 * becomes an assistant message followed by the tool message with exactly those calls' results.
 */
function assistantTurns(blocks: readonly Block[], sentCallIds: Set<string>): PromptMessage[] {
  const turns: PromptMessage[] = [];
  let content: PromptAssistantPart[] = [];
  let results: PromptToolResult[] = [];
  const flush = () => {
    if (content.length > 0) turns.push({ role: 'assistant', content });
    if (results.length > 0) turns.push({ role: 'tool', content: results });
    content = [];
    results = [];
  };
  for (const block of blocks) {
    const shown = blockHistory(block);
    if (shown === undefined) continue;
    if (shown.kind === 'text') {
      if (results.length > 0) flush();
      content.push({ type: 'text', text: shown.text });
      continue;
    }
    const { toolCallId, toolName, input, output } = shown.exchange;
    if (sentCallIds.has(toolCallId)) continue;
    sentCallIds.add(toolCallId);
    content.push({ type: 'tool-call', toolCallId, toolName, input });
    results.push({ type: 'tool-result', toolCallId, toolName, output });
  }
  flush();
  return turns;
}

/**
 * Providers want a tool call's input as an object (Anthropic rejects anything else). A call whose arguments were not
 * a JSON object was answered with an error result that says what was wrong, so `{}` loses nothing the model needs.
 */
function asToolInput(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** One file of a user message as the model is given it (see toPromptMessages). */
function attachmentPart(file: AttachmentMeta, content: AttachmentContent | undefined): PromptUserPart {
  const name = attributeText(file.name);
  const shown = { name: visibleFileName(file.name), mimeType: file.mimeType };
  if (content === undefined) return { type: 'text', text: `<file name="${name}">[This file is no longer stored, so its content cannot be given.]</file>`, attachment: shown };
  if (content.kind === 'syncing') return { type: 'text', text: `<file name="${name}">${content.said}</file>`, attachment: { ...shown, syncing: true } };
  if (content.kind === 'image') return { type: 'file', mediaType: content.mediaType, data: content.bytes, filename: visibleFileName(file.name), attachment: { ...shown, bytes: content.bytes.length } };
  const attachment = { ...shown, bytes: new TextEncoder().encode(content.text).length };
  return { type: 'text', text: `<file name="${name}" type="${attributeText(file.mimeType)}">\n${content.text}\n</file>`, attachment };
}

/**
 * A file name inside the `<file name="…">` wrapper: nothing in it can close the attribute or the tag, nor (its bidi
 * controls shown as code points, as the user sees them) disguise itself in what the model writes back.
 */
function attributeText(text: string): string {
  return visibleFileName(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\r\n]/g, ' ');
}

import type { AssistantContent, ModelMessage, ToolContent, UserContent } from 'ai';
import type { AttachmentContent } from '../../core/model';
import type { AttachmentMeta } from '../../schema/attachments';
import type { Block } from '../../schema/blocks';
import type { Message } from '../../schema/records';
import { QUESTION_TOOL_NAME } from '../../core/question-tool';
import { visibleFileName } from '../../schema/file-name';

type AssistantPart = Exclude<AssistantContent, string>[number];
type ToolResult = Extract<ToolContent[number], { type: 'tool-result' }>;
type UserPart = Exclude<UserContent, string>[number];

/**
 * Stored messages → the AI SDK's messages, oldest first. What a model is sent:
 * - user text; assistant text (empty text is skipped; reasoning and error blocks are never sent back);
 * - a tool call with its result: an assistant tool-call part, then a tool message holding its result right after
 *   that assistant message (an error result as an error output, so the model sees that the call failed);
 * - a resolved question: a `question` tool call with `{ questions }` and the block's tool result. A pending question
 *   (and a call with no result yet) is not sent at all: a provider rejects a call that has no result.
 * Each tool call id is sent once. Interrupted or stopped messages send the text they have.
 * - a user message's files (`attachments`, their contents read back for this step): after its text, a text file as a
 *   text part holding its name and text, an image as a file part with its media type (the provider turns it into its
 *   own image part). A file no longer stored is named in a text part that says so.
 */
export function toModelMessages(history: readonly Message[], options: { system?: string; attachments?: ReadonlyMap<string, AttachmentContent> | undefined } = {}): ModelMessage[] {
  const messages: ModelMessage[] = [];
  if (options.system) messages.push({ role: 'system', content: options.system });
  const sentCallIds = new Set<string>();
  for (const message of history) {
    if (message.role === 'user') {
      const text = message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
      const files = message.attachments ?? [];
      if (files.length === 0) {
        if (text.trim() !== '') messages.push({ role: 'user', content: text });
        continue;
      }
      const content: UserPart[] = text.trim() !== '' ? [{ type: 'text', text }] : [];
      for (const file of files) content.push(attachmentPart(file, options.attachments?.get(file.id)));
      messages.push({ role: 'user', content });
      continue;
    }
    messages.push(...assistantTurns(message.blocks, sentCallIds));
  }
  return messages;
}

/**
 * One stored assistant message can hold several steps (text, calls, more text…). Each run of text followed by calls
 * becomes an assistant message followed by the tool message with exactly those calls' results.
 */
function assistantTurns(blocks: readonly Block[], sentCallIds: Set<string>): ModelMessage[] {
  const turns: ModelMessage[] = [];
  let content: AssistantPart[] = [];
  let results: ToolResult[] = [];
  const flush = () => {
    if (content.length > 0) turns.push({ role: 'assistant', content });
    if (results.length > 0) turns.push({ role: 'tool', content: results });
    content = [];
    results = [];
  };
  for (const block of blocks) {
    if (block.type === 'text') {
      if (block.text === '') continue;
      if (results.length > 0) flush();
      content.push({ type: 'text', text: block.text });
      continue;
    }
    const call = toolExchange(block);
    if (call === undefined || sentCallIds.has(call.toolCallId)) continue;
    sentCallIds.add(call.toolCallId);
    content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input });
    results.push({ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: call.output });
  }
  flush();
  return turns;
}

interface ToolExchange {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  output: ToolResult['output'];
}

/**
 * A block that is a finished tool exchange; undefined for anything that must not be sent (a call not finished yet;
 * text; an elicitation, which the tool's own result reports on).
 */
function toolExchange(block: Block): ToolExchange | undefined {
  switch (block.type) {
    case 'tool_call': {
      if (block.status === 'pending' || block.status === 'running' || block.result === undefined) return undefined;
      // The model is told what really ran: after an edit, `args` are the user's (and the result says so).
      return {
        toolCallId: block.toolCallId,
        toolName: block.toolName,
        input: asToolInput(block.approval?.originalArgs ?? block.args),
        output: block.status === 'success' ? { type: 'text', value: block.result } : { type: 'error-text', value: block.result },
      };
    }
    case 'question_request':
      if (block.status === 'pending') return undefined;
      return {
        toolCallId: block.toolCallId,
        toolName: QUESTION_TOOL_NAME,
        input: { questions: block.questions },
        output: { type: 'text', value: block.toolResult ?? fallbackQuestionResult(block.resolution) },
      };
    case 'elicitation_request':
    case 'text':
    case 'reasoning':
    case 'error':
      return undefined;
  }
}

/**
 * Providers want a tool call's input as an object (Anthropic rejects anything else). A call whose arguments were not
 * a JSON object was answered with an error result that says what was wrong, so `{}` loses nothing the model needs.
 */
function asToolInput(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** Only for blocks stored without their result text (older data): say what happened rather than nothing. */
function fallbackQuestionResult(resolution: string | undefined): string {
  if (resolution === 'dismissed') return 'The user dismissed these questions without answering.';
  if (resolution === 'stopped') return 'The user stopped the run before answering these questions.';
  return 'The user responded to these questions.';
}

/** One file of a user message as the model is given it (see toModelMessages). */
function attachmentPart(file: AttachmentMeta, content: AttachmentContent | undefined): UserPart {
  const name = attributeText(file.name);
  if (content === undefined) return { type: 'text', text: `<file name="${name}">[This file is no longer stored, so its content cannot be given.]</file>` };
  if (content.kind === 'image') return { type: 'file', mediaType: content.mediaType, data: content.bytes, filename: visibleFileName(file.name) };
  return { type: 'text', text: `<file name="${name}" type="${attributeText(file.mimeType)}">\n${content.text}\n</file>` };
}

/**
 * A file name inside the `<file name="…">` wrapper: nothing in it can close the attribute or the tag, nor (its bidi
 * controls shown as code points, as the user sees them) disguise itself in what the model writes back.
 */
function attributeText(text: string): string {
  return visibleFileName(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\r\n]/g, ' ');
}

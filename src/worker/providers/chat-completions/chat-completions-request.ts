import type { PromptMessage, Sampling, ToolSpec } from '../../../core/run/model';
import { toBase64 } from '../../../core/base64';

/** A Chat Completions message as sent on the wire. */
type ChatMessage =
  | { role: 'system'; content: string }
  /** Text, or text and images as content parts (only when the message has an image: some servers take strings only). */
  | { role: 'user'; content: string | ChatUserPart[] }
  | { role: 'assistant'; content: string; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string };

type ChatUserPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * The request body of one streamed Chat Completions step: the prompt's messages (see `core/prompt/prompt.ts`) in the wire's
 * shape, the tools as functions, usage asked for in the last chunk. The same body the AI SDK's provider sends.
 */
export function chatCompletionsBody(
  model: string,
  messages: readonly PromptMessage[],
  tools: readonly ToolSpec[],
  system?: string,
  sampling: Sampling = {},
): Record<string, unknown> {
  const wire: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) wire.push(...toChatMessages(message));
  return {
    model,
    messages: wire,
    ...(tools.length > 0
      ? { tools: tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })) }
      : {}),
    ...(sampling.temperature !== undefined ? { temperature: sampling.temperature } : {}),
    ...(sampling.maxOutputTokens !== undefined ? { max_tokens: sampling.maxOutputTokens } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}

function toChatMessages(message: PromptMessage): ChatMessage[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: userContent(message.content) }];
    case 'assistant': {
      let content = '';
      const calls: NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']> = [];
      for (const part of message.content) {
        if (part.type === 'text') content += part.text;
        else if (part.type === 'tool-call') calls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input) } });
      }
      return [calls.length > 0 ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content }];
    }
    case 'tool':
      return message.content.map((part) => ({ role: 'tool' as const, tool_call_id: part.toolCallId, content: part.output.value }));
  }
}

/**
 * A user message's content on the wire: a string unless it holds an image, then parts, each image as a data URL (the
 * Chat Completions form every OpenAI-compatible server that takes images reads). Text parts are a paragraph apart.
 */
function userContent(content: Extract<PromptMessage, { role: 'user' }>['content']): string | ChatUserPart[] {
  if (typeof content === 'string') return content;
  const parts: ChatUserPart[] = [];
  for (const part of content) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else if (part.mediaType.startsWith('image/')) {
      parts.push({ type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${toBase64(part.data)}` } });
    }
  }
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => (part as { text: string }).text).join('\n\n');
  return parts;
}


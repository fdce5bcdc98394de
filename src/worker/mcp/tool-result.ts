import type { ToolOutput } from '../../core/tools/tool';

/** The most a tool result gives the model; more is cut with a note saying so. */
const MAX_RESULT_CHARACTERS = 50_000;

/** The parts of an MCP CallToolResult this mapping reads (structurally; the SDK's type has more). */
export interface CallToolResultLike {
  content?: ReadonlyArray<Record<string, unknown>>;
  structuredContent?: unknown;
  isError?: boolean;
  /** Servers of protocol 2024-10-07 answered with `toolResult` instead of `content`. */
  toolResult?: unknown;
}

/**
 * An MCP tool result as the text the model reads: text parts as they are, structured content as JSON (unless a text part
 * already carries it), binary parts described, never inlined or fetched (`[image: image/png, 1234 bytes]`), resource
 * links as links, embedded text resources with their URI. Bounded to `limit` characters, the cut said in the text.
 */
export function toToolOutput(result: CallToolResultLike, limit: number = MAX_RESULT_CHARACTERS): ToolOutput {
  const parts = (result.content ?? []).map(describePart);
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent, null, 2);
    const alreadyThere = (result.content ?? []).some((part) => part.type === 'text' && typeof part.text === 'string' && sameJson(part.text, result.structuredContent));
    if (!alreadyThere) parts.push(parts.length > 0 ? `Structured result:\n${json}` : json);
  }
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  const text = parts.length > 0 ? parts.join('\n\n') : '(The tool returned no content.)';
  return { text: truncateForModel(text, limit), ...(result.isError ? { isError: true } : {}) };
}

/** `text` cut to `limit` characters with the note `[truncated: showed N of M characters]`; never cuts a character in two. */
export function truncateForModel(text: string, limit: number = MAX_RESULT_CHARACTERS): string {
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n\n[truncated: showed ${end} of ${text.length} characters]`;
}

function describePart(part: Record<string, unknown>): string {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return `[${part.type}: ${typeof part.mimeType === 'string' ? part.mimeType : 'unknown type'}, ${base64Bytes(part.data)} bytes]`;
    case 'resource_link': {
      const name = typeof part.title === 'string' ? part.title : typeof part.name === 'string' ? part.name : 'resource';
      const details = [typeof part.mimeType === 'string' ? part.mimeType : '', typeof part.description === 'string' ? part.description : ''].filter(Boolean).join(', ');
      return `[link: ${name} <${String(part.uri ?? '')}>${details ? ` (${details})` : ''}]`;
    }
    case 'resource': {
      const resource = (typeof part.resource === 'object' && part.resource !== null ? part.resource : {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? '');
      const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
      if (typeof resource.text === 'string') return `[resource <${uri}>${mimeType ? ` (${mimeType})` : ''}]\n${resource.text}`;
      return `[resource <${uri}>: ${mimeType ?? 'binary'}, ${base64Bytes(resource.blob)} bytes, not shown]`;
    }
    default:
      return `[content of type "${String(part.type)}", not shown]`;
  }
}

/** The decoded size of base64 data, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

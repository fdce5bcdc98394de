import type { ModelPart } from '../../../core/run/model';

/** The tags of the Qwen/Hermes chat format: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, `<think>…</think>`. */
const TOOL_OPEN = '<tool_call>';
const TOOL_CLOSE = '</tool_call>';
const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

type Mode = 'text' | 'tool' | 'think';

/**
 * Turns a model's raw streamed text into our stream parts: plain text as `text-delta`, `<think>` as `reasoning-delta`,
 * each `<tool_call>` as a `tool-call` part. A tag split across chunks is held back until it is decided. A call whose
 * JSON does not parse is still a call (input = its raw text, as the AI SDK gives an invalid call), so the loop answers
 * it with an error result the model can act on; a call cut off by the end of the text is handled the same way.
 */
export function createToolCallParser(options: { newId: () => string }) {
  let mode: Mode = 'text';
  let buffer = '';

  function* drain(final: boolean): Generator<ModelPart> {
    for (;;) {
      if (mode === 'tool') {
        // The call's text stays in the buffer until its closing tag is seen, so a tag split across chunks is found.
        const end = buffer.indexOf(TOOL_CLOSE);
        if (end === -1) {
          if (!final) return;
          yield toToolCall(buffer, options.newId());
          buffer = '';
          mode = 'text';
          return;
        }
        yield toToolCall(buffer.slice(0, end), options.newId());
        buffer = buffer.slice(end + TOOL_CLOSE.length);
        mode = 'text';
        continue;
      }
      const close = mode === 'think' ? THINK_CLOSE : undefined;
      const tags = close ? [close] : [TOOL_OPEN, THINK_OPEN];
      const found = firstTag(buffer, tags);
      if (found) {
        const before = buffer.slice(0, found.index);
        if (before !== '') yield delta(mode, before);
        buffer = buffer.slice(found.index + found.tag.length);
        mode = found.tag === TOOL_OPEN ? 'tool' : found.tag === THINK_OPEN ? 'think' : 'text';
        continue;
      }
      // Keep back a tail that may be the start of a tag, unless the text has ended.
      const keep = final ? 0 : partialTagLength(buffer, tags);
      const out = buffer.slice(0, buffer.length - keep);
      buffer = buffer.slice(buffer.length - keep);
      if (out !== '') yield delta(mode, out);
      return;
    }
  }

  return {
    /** Feeds the next chunk of raw text; returns the parts it completes. */
    push(text: string): ModelPart[] {
      buffer += text;
      return [...drain(false)];
    },
    /** The text has ended: returns whatever was held back, and any unfinished call. */
    end(): ModelPart[] {
      return [...drain(true)];
    },
  };
}

/** Parses a whole text at once (for tests and non-streamed replies). */
export function parseToolCallText(text: string, newId: () => string): ModelPart[] {
  const parser = createToolCallParser({ newId });
  return mergeDeltas([...parser.push(text), ...parser.end()]);
}

function mergeDeltas(parts: ModelPart[]): ModelPart[] {
  const merged: ModelPart[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (last && (part.type === 'text-delta' || part.type === 'reasoning-delta') && last.type === part.type) {
      merged[merged.length - 1] = { type: part.type, text: last.text + part.text };
    } else merged.push(part);
  }
  return merged;
}

function delta(mode: Mode, text: string): ModelPart {
  return mode === 'think' ? { type: 'reasoning-delta', text } : { type: 'text-delta', text };
}

function firstTag(text: string, tags: readonly string[]): { index: number; tag: string } | undefined {
  let best: { index: number; tag: string } | undefined;
  for (const tag of tags) {
    const index = text.indexOf(tag);
    if (index !== -1 && (best === undefined || index < best.index)) best = { index, tag };
  }
  return best;
}

/** How many trailing characters of `text` could be the beginning of one of `tags`. */
function partialTagLength(text: string, tags: readonly string[]): number {
  let longest = 0;
  for (const tag of tags) {
    for (let length = Math.min(tag.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(tag.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/**
 * One call's text → a `tool-call` part. Lenient as the other providers: `arguments` may be an object or a JSON string
 * (`parameters` is accepted too); when the JSON is broken the name is still read if it can be, and the input is the raw
 * text, so the validator's error names the problem.
 */
function toToolCall(raw: string, toolCallId: string): Extract<ModelPart, { type: 'tool-call' }> {
  const text = raw.trim();
  const parsed = parseJson(text);
  if (isRecord(parsed) && typeof parsed.name === 'string') {
    let input: unknown = parsed.arguments ?? parsed.parameters ?? {};
    if (typeof input === 'string') {
      const inner = parseJson(input);
      if (inner !== undefined) input = inner;
    }
    return { type: 'tool-call', toolCallId, toolName: parsed.name, input };
  }
  const name = /"name"\s*:\s*"([^"\\]{1,200})"/.exec(text)?.[1] ?? 'unknown';
  const argumentsStart = /"(?:arguments|parameters)"\s*:\s*/.exec(text);
  const input = argumentsStart ? text.slice(argumentsStart.index + argumentsStart[0].length).replace(/\}\s*$/, '') : text;
  return { type: 'tool-call', toolCallId, toolName: name, input };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

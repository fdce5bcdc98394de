/**
 * A fast server's text chunks differ only in their content string: `{"id":"…","choices":[{"index":0,"delta":{"content":
 * "…"}}]}` fifty thousand times. JSON.parse of each was half of the worker's time in a 50,000-token reply. A shape is
 * learned from one such chunk: the text before its content string and the text after it. A later event that is the same
 * prefix, a JSON string body and the same suffix is the same chunk with that content, so only the body is decoded.
 *
 * Why that holds: the prefix ends with the opening quote of the content string and the suffix starts with its closing
 * quote. A body with no quote, backslash or control character is a string literal of itself; any other body is decoded
 * by JSON.parse as a string literal. A bare quote (one that would end the string and change the structure) never
 * matches. The rest of the text is byte for byte the learned chunk's. A shape is kept only when two probe contents
 * put between them parse back as exactly the delta's content, and as nothing else that the stream parser reads.
 */
export class ContentChunkShape {
  /** The prefix, a JSON string body (captured) and the suffix, anchored at both ends. */
  private readonly pattern: RegExp;
  /**
   * A whole server-sent event of this shape, `data: …\n\n`, matched where `lastIndex` says (sticky): a run of them is
   * read straight from the decoded network text, without splitting it into lines first.
   */
  readonly eventPattern: RegExp;

  private constructor(
    private readonly prefix: string,
    private readonly suffix: string,
  ) {
    // One compiled expression: V8's startsWith of a 100-character prefix cost as much as the JSON.parse it replaces.
    this.pattern = new RegExp(`^${escapeRegExp(prefix)}(${STRING_BODY})${escapeRegExp(suffix)}$`);
    this.eventPattern = new RegExp(`data: ${escapeRegExp(prefix)}(${STRING_BODY})${escapeRegExp(suffix)}\n\n`, 'y');
  }

  /** The shape of `data`, a chunk that carried only text; undefined when it has none the fast path can trust. */
  static learn(data: string): ContentChunkShape | undefined {
    // Data joined from two `data:` lines: its line feed could not stand inside one event's single line.
    if (/[\r\n]/.test(data)) return undefined;
    const key = data.indexOf(CONTENT_KEY);
    if (key < 0 || data.indexOf(CONTENT_KEY, key + 1) >= 0) return undefined;
    const start = key + CONTENT_KEY.length;
    const end = closingQuote(data, start);
    if (end < 0) return undefined;
    const shape = new ContentChunkShape(data.slice(0, start), data.slice(end));
    return shape.probe() ? shape : undefined;
  }

  /** The content of `data` when it has this shape; undefined when it does not (then it is parsed in full). */
  read(data: string): string | undefined {
    const body = this.pattern.exec(data)?.[1];
    return body === undefined ? undefined : decodeBody(body);
  }

  /** True when two different probe contents in this shape parse back as chunks that carry that text and nothing else. */
  private probe(): boolean {
    return PROBES.every((probe) => carriesOnly(this.prefix + probe + this.suffix, probe));
  }
}

/**
 * True when `json` is a chunk that ChatCompletionsStreamParser reads as the text `text` alone: no error, no usage, no
 * finish reason, no reasoning, no tool calls. The same tests as the parser's, so the shape never skips what it reads.
 */
function carriesOnly(json: string, text: string): boolean {
  let chunk: unknown;
  try {
    chunk = JSON.parse(json);
  } catch {
    return false;
  }
  if (!isObject(chunk) || (chunk.error !== undefined && chunk.error !== null)) return false;
  if (chunk.usage && typeof chunk.usage === 'object') return false;
  const { choices } = chunk;
  if (!Array.isArray(choices) || choices.length === 0 || !isObject(choices[0])) return false;
  const choice = choices[0];
  if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') return false;
  const { delta } = choice;
  if (!isObject(delta) || delta.content !== text || Array.isArray(delta.tool_calls)) return false;
  return ![delta.reasoning_content, delta.reasoning].some((value) => typeof value === 'string' && value !== '');
}

const CONTENT_KEY = '"content":"';
/**
 * Not valid JSON outside a string, so a shape whose prefix does not end inside one fails to parse; two of them, so the
 * text that comes back is the one put in (not another key's that happens to hold the same words).
 */
const PROBES = ['probe \u2063 one', 'probe \u2063 two'];
/**
 * A JSON string body: characters other than a quote, a backslash or a control character, and backslash pairs (JSON.parse
 * then checks the escapes). A bare quote cannot match, so the body never ends the string early.
 */
const STRING_BODY = '[^"\\\\\\u0000-\\u001f]*(?:\\\\.[^"\\\\\\u0000-\\u001f]*)*';

/** The text a JSON string body stands for; undefined for a bad escape. */
export function decodeBody(body: string): string | undefined {
  if (!body.includes('\\')) return body;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Index of the quote that ends the JSON string whose body starts at `start`, or -1. */
function closingQuote(text: string, start: number): number {
  for (let index = start; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 92 /* \ */) index += 1;
    else if (code === 34 /* " */) return index;
  }
  return -1;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

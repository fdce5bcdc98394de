import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelPart } from '../../src/core/run/model';
import { ChatCompletionsReader } from '../../src/worker/providers/chat-completions/chat-completions-reader';
import { ChatCompletionsStreamError, ChatCompletionsStreamParser } from '../../src/worker/providers/chat-completions/chat-completions-stream';
import { ContentChunkShape } from '../../src/worker/providers/chat-completions/content-chunk-shape';
import { SseDecoder } from '../../src/worker/providers/chat-completions/sse-decoder';
import { mergeDeltas } from './model-parts';

/** A text chunk as OpenAI-compatible servers write it; `extra` goes after `choices`, as OpenAI's `obfuscation`. */
const textChunk = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }], ...extra });
const PREFIX = textChunk('').slice(0, textChunk('').indexOf('"content":"') + '"content":"'.length);
const SUFFIX = textChunk('').slice(PREFIX.length);

/** What the parser must give for `events`, by JSON.parse of every one: the text, the finish reason, or the failure. */
function reference(events: readonly string[]): { text: string; finishReason?: string; fails: boolean } {
  let text = '';
  let finishReason: string | undefined;
  for (const data of events) {
    let chunk: { error?: unknown; choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }> };
    try {
      chunk = JSON.parse(data);
    } catch {
      return { text, fails: true };
    }
    if (!chunk || typeof chunk !== 'object' || Array.isArray(chunk) || (chunk.error !== undefined && chunk.error !== null)) return { text, fails: true };
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice || typeof choice !== 'object') continue;
    const content = choice.delta && typeof choice.delta === 'object' ? choice.delta.content : undefined;
    if (typeof content === 'string') text += content;
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') finishReason = choice.finish_reason;
  }
  return { text, ...(finishReason === undefined ? {} : { finishReason }), fails: false };
}

/** The parser's text over `batches` of events, and whether it failed. */
function parse(batches: readonly (readonly string[])[]): { text: string; fails: boolean; parser: ChatCompletionsStreamParser } {
  const parser = new ChatCompletionsStreamParser();
  let text = '';
  const take = (parts: ModelPart[]) => {
    for (const part of parts) if (part.type === 'text-delta') text += part.text;
  };
  try {
    for (const batch of batches) take(parser.push(batch));
  } catch (error) {
    if (!(error instanceof ChatCompletionsStreamError)) throw error;
    return { text, fails: true, parser };
  }
  return { text, fails: false, parser };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ContentChunkShape', () => {
  it('reads a text chunk of the learned shape without parsing it, whatever its text', () => {
    const shape = ContentChunkShape.learn(textChunk('first'))!;
    expect(shape).toBeDefined();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (content) => {
        expect(shape.read(textChunk(content))).toBe(content);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses whatever would change the chunk around the text: a bare quote, a bad escape, another shape', () => {
    const shape = ContentChunkShape.learn(textChunk('first'))!;
    // The text ends early and the rest is more JSON: a finish reason the fast path would have taken as text.
    expect(shape.read(`${PREFIX}a"},"finish_reason":"stop","x":{"y":"${SUFFIX}`)).toBeUndefined();
    expect(shape.read(`${PREFIX}a","x":"b${SUFFIX}`)).toBeUndefined();
    expect(shape.read(`${PREFIX}bad \\x escape${SUFFIX}`)).toBeUndefined();
    expect(shape.read(`${PREFIX}raw \u0001 control${SUFFIX}`)).toBeUndefined();
    expect(shape.read(`${PREFIX}ends in a backslash\\${SUFFIX}`)).toBeUndefined();
    expect(shape.read(textChunk('nonce', { obfuscation: 'abc' }))).toBeUndefined();
    expect(shape.read(JSON.stringify({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] }))).toBeUndefined();
  });

  it('learns no shape from a chunk that carries more than text, or whose text key is ambiguous', () => {
    const withFinish = JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] });
    const withReasoning = JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'x', reasoning_content: 'y' } }] });
    const withUsage = JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'x' } }], usage: { prompt_tokens: 1 } });
    const withTools = JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'x', tool_calls: [] } }] });
    const withUsageList = JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'x' } }], usage: [] });
    // The key twice: which one JSON.parse keeps is not for the shape to guess.
    const duplicate = '{"choices":[{"index":0,"delta":{"content":"x","content":"y"}}]}';
    // The text's key spelled with an escape, after a plain "content" elsewhere: the plain one is not the text.
    const escapedKey = '{"choices":[{"index":0,"delta":{"cont\\u0065nt":"y"}}],"x":{"content":"x"}}';
    const joinedLines = '{"choices":[{"index":0,"delta":\n{"content":"a"}}]}';
    for (const data of [withFinish, withReasoning, withUsage, withUsageList, withTools, duplicate, escapedKey, joinedLines]) {
      expect(ContentChunkShape.learn(data)).toBeUndefined();
    }
  });
});

describe('ChatCompletionsStreamParser with learned shapes', () => {
  const hostile = fc.oneof(
    fc.string({ unit: 'binary' }).map((content) => textChunk(content)),
    // Anything at all between the learned prefix and suffix: valid or not, text or structure.
    fc.string({ unit: 'binary' }).map((middle) => `${PREFIX}${middle}${SUFFIX}`),
    fc.constantFrom(`${PREFIX}a"},"finish_reason":"stop","x":{"y":"${SUFFIX}`, `${PREFIX}a\\"b${SUFFIX}`, `${PREFIX}\\u00e9\\n${SUFFIX}`, `${PREFIX}\\ud83c\\udf0d${SUFFIX}`),
    fc.string().map((content) => textChunk(content, { obfuscation: content.length.toString(36) })),
    fc.constant(JSON.stringify({ id: 'chatcmpl-7', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })),
  );

  it('gives exactly what parsing every chunk gives, for any mix of chunks and batches', () => {
    fc.assert(
      fc.property(fc.array(fc.array(hostile, { maxLength: 8 }), { maxLength: 8 }), (batches) => {
        const expected = reference(batches.flat());
        const got = parse(batches);
        expect(got.fails).toBe(expected.fails);
        if (!expected.fails) expect(got.text).toBe(expected.text);
        else expect(expected.text.startsWith(got.text)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('parses a stream of same-shape text chunks once per shape, not once per chunk', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const events = Array.from({ length: 1_000 }, (_, index) => textChunk(index % 50 === 0 ? `\n\nw${index}` : ` w${index}`));
    const got = parseBatches([events.slice(0, 400), events.slice(400)]);
    expect(got).toBe(events.map((data) => (JSON.parse(data) as { choices: [{ delta: { content: string } }] }).choices[0].delta.content).join(''));
    // One full parse and two probes to learn the shape; a \n escape is decoded as a string, 20 of them.
    const calls = parse.mock.calls.length - events.length;
    expect(calls).toBeLessThanOrEqual(3 + 20);
  });

  it('stops learning for a server whose chunks never repeat (a per-chunk nonce), and still reads them all', () => {
    const events = Array.from({ length: 200 }, (_, index) => textChunk(`t${index} `, { obfuscation: `n${index}` }));
    const parse = vi.spyOn(JSON, 'parse');
    expect(parseBatches([events])).toBe(events.map((_, index) => `t${index} `).join(''));
    // Every chunk parsed once, plus two probes for each of the few shapes learned before giving up.
    expect(parse.mock.calls.length).toBeLessThanOrEqual(200 + 2 * 4);
  });
});

/** Every part, consecutive deltas merged, and how it failed (or `end`'s failure). */
type Outcome = { parts: ModelPart[]; failure?: string };

function outcome(run: (parts: ModelPart[]) => void): Outcome {
  const parts: ModelPart[] = [];
  try {
    run(parts);
    return { parts: mergeDeltas(parts) };
  } catch (error) {
    if (!(error instanceof ChatCompletionsStreamError)) throw error;
    return { parts: mergeDeltas(parts), failure: error.failure.kind };
  }
}

/** The decoder and the parser alone, each piece of text in turn, as the provider read streams before the reader. */
function byEvents(pieces: readonly string[]): Outcome {
  return outcome((parts) => {
    const sse = new SseDecoder();
    const parser = new ChatCompletionsStreamParser();
    for (const piece of pieces) {
      parts.push(...parser.push(sse.push(piece)));
      if (parser.isDone) break;
    }
    if (!parser.isDone) parts.push(...parser.push(sse.end(), { tail: true }));
    parts.push(...parser.end());
  });
}

function byReader(pieces: readonly string[]): Outcome {
  return outcome((parts) => {
    const reader = new ChatCompletionsReader();
    for (const piece of pieces) {
      parts.push(...reader.push(piece));
      if (reader.isDone) break;
    }
    parts.push(...reader.close(), ...reader.end());
  });
}

describe('ChatCompletionsReader', () => {
  const event = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: 'binary' }).map((content) => `data: ${textChunk(content)}\n\n`) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary' }).map((middle) => `data: ${PREFIX}${middle}${SUFFIX}\n\n`) },
    fc.constantFrom(
      `data: ${PREFIX}a"},"finish_reason":"stop","x":{"y":"${SUFFIX}\n\n`,
      `data: ${textChunk('crlf')}\r\n\r\n`,
      `data:${textChunk('no space')}\n\n`,
      ': keep-alive\n\n',
      `data: ${JSON.stringify({ id: 'chatcmpl-7', choices: [{ index: 0, delta: { reasoning_content: 'thinking' } }] })}\n\n`,
      `data: ${JSON.stringify({ id: 'chatcmpl-7', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }] } }] })}\n\n`,
      `data: ${JSON.stringify({ id: 'chatcmpl-7', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      'data: [DONE]\n\n',
      'data: not json\n\n',
      `event: other\ndata: ${textChunk('with an event line')}\n\n`,
      `data: ${PREFIX}bad \\x escape${SUFFIX}\n\n`,
      // Two data lines make one event: their JSON texts joined by a line feed, which is not one chunk.
      `data: ${textChunk('first line')}\ndata: ${textChunk('second line')}\n\n`,
      `data: {"choices":[{"index":0,"delta":\ndata: {"content":"split over two data lines"}}]}\n\n`,
      // The same text on one line is a line that ends inside the JSON, then a line with no data field.
      `data: {"choices":[{"index":0,"delta":\n{"content":"one line"}}]}\n\n`,
    ),
  );
  /** The stream's text cut at the given fractions, as reads off the network would cut it. */
  const pieces = fc.tuple(fc.array(event, { maxLength: 14 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 })).map(([events, cuts]) => {
    const text = events.join('');
    const at = [...new Set(cuts.map((cut) => Math.floor(cut * text.length)))].sort((a, b) => a - b);
    return [0, ...at].map((start, index) => text.slice(start, at[index] ?? text.length));
  });

  it('gives exactly the parts the decoder and the parser give, however the text is cut', () => {
    fc.assert(
      fc.property(pieces, (cut) => {
        expect(byReader(cut)).toEqual(byEvents(cut));
      }),
      { numRuns: 1_000 },
    );
  });

  it('gives the same parts for tricky events cut at every position', () => {
    const tricky = [
      `data: ${textChunk('learn the shape')}\n\n`,
      `data: ${textChunk('one')}\ndata: ${textChunk('event')}\n\n`,
      `data: ${textChunk('after')}\n\n`,
      `data: ${PREFIX}bad \\x escape${SUFFIX}\n\n`,
      `data: ${textChunk('never read')}\n\n`,
    ];
    for (const events of [tricky, [tricky[0]!, tricky[2]!, tricky[3]!, tricky[4]!], [tricky[0]!, tricky[2]!, tricky[1]!]]) {
      const text = events.join('');
      for (let cut = 0; cut <= text.length; cut += 1) {
        const cutText = [text.slice(0, cut), text.slice(cut)];
        expect(byReader(cutText)).toEqual(byEvents(cutText));
      }
    }
  });

  it('reads a server whose chunks never repeat (a per-chunk nonce) in batches, once it stopped learning shapes', () => {
    const text = Array.from({ length: 200 }, (_, index) => `data: ${textChunk(`t${index} `, { obfuscation: `n${index}` })}\n\n`).join('');
    const reader = new ChatCompletionsReader();
    const pushes = vi.spyOn(SseDecoder.prototype, 'push');
    const parts = [...reader.push(text.slice(0, 5_000)), ...reader.push(text.slice(5_000))];
    expect(mergeDeltas(parts)).toEqual([{ type: 'text-delta', text: Array.from({ length: 200 }, (_, index) => `t${index} `).join('') }]);
    expect(pushes.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it('reads a run of text events without cutting the text into lines', () => {
    const text = Array.from({ length: 500 }, (_, index) => `data: ${textChunk(` w${index}`)}\n\n`).join('');
    const reader = new ChatCompletionsReader();
    const lines = vi.spyOn(SseDecoder.prototype, 'push');
    const parts = [...reader.push(text.slice(0, 1_000)), ...reader.push(text.slice(1_000))];
    expect(mergeDeltas(parts)).toEqual([{ type: 'text-delta', text: Array.from({ length: 500 }, (_, index) => ` w${index}`).join('') }]);
    // The first event (to learn the shape), and the event cut between the two pieces.
    expect(lines.mock.calls.length).toBeLessThanOrEqual(3);
  });
});

function parseBatches(batches: readonly (readonly string[])[]): string {
  const got = parse(batches);
  expect(got.fails).toBe(false);
  return got.text;
}

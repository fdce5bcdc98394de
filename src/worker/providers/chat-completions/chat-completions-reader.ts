import type { ModelPart } from '../../../core/run/model';
import { ChatCompletionsStreamParser } from './chat-completions-stream';
import { decodeBody } from './content-chunk-shape';
import { SseDecoder } from './sse-decoder';

/**
 * The decoded text of one Chat Completions stream → model parts: server-sent events (sse-decoder.ts) read as chunks
 * (chat-completions-stream.ts). Once the parser knows the stream's text-chunk shape, a run of such events is read
 * straight from the text by one sticky regular expression, without cutting it into lines and events first: that was
 * most of what was left of the worker's time for a fast server's 50,000 one-token events. Anything else (another
 * kind of chunk, a comment, CR line ends, an event cut between two reads) goes through the decoder and the parser,
 * one event at a time, after which the fast path resumes; without a shape, the whole text does. The parts are those the
 * decoder and parser alone give.
 */
export class ChatCompletionsReader {
  private readonly events = new SseDecoder();
  private readonly parser = new ChatCompletionsStreamParser();

  /** True once `[DONE]` was read: nothing after it counts. */
  get isDone(): boolean {
    return this.parser.isDone;
  }

  /** The parts carried by `text`; throws ChatCompletionsStreamError as the parser does. */
  push(text: string): ModelPart[] {
    const parts: ModelPart[] = [];
    let position = 0;
    while (position < text.length && !this.parser.isDone) {
      const pattern = this.parser.textEventPattern;
      if (pattern === undefined) {
        // No shape (yet, or any more): the rest as one batch, as the decoder and parser read it anyway.
        parts.push(...this.parser.push(this.events.push(text.slice(position))));
        break;
      }
      if (this.events.idle) {
        let content = '';
        pattern.lastIndex = position;
        for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
          const decoded = decodeBody(match[1]!);
          if (decoded === undefined) break;
          content += decoded;
          position = pattern.lastIndex;
        }
        parts.push(...this.parser.pushText(content));
        if (position >= text.length) break;
      }
      // Up to the end of the next event (a blank line), through the decoder and the parser.
      const blankLine = text.indexOf('\n\n', position);
      const end = blankLine < 0 ? text.length : blankLine + 2;
      parts.push(...this.parser.push(this.events.push(text.slice(position, end))));
      position = end;
    }
    return parts;
  }

  /**
   * The network stream closed: the parts of an unterminated last event (a cut, or a server that closed right after
   * `data: [DONE]`); a chunk that does not parse there is a cut, not garbage.
   */
  close(): ModelPart[] {
    return this.parser.isDone ? [] : this.parser.push(this.events.end(), { tail: true });
  }

  /** The assembled tool calls and the finish (ChatCompletionsStreamParser.end). */
  end(): ModelPart[] {
    return this.parser.end();
  }
}

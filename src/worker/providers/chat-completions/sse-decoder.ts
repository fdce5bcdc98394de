/**
 * Server-sent events, incrementally: text in, the `data` of each complete event out. Follows the HTML standard's
 * parsing rules: lines end in CRLF, LF or CR (a CRLF may be split across two pushes); `data:` lines of one event are
 * joined with LF; one space after the colon is dropped; comment lines (`:` keep-alives) and other fields are ignored;
 * a blank line ends the event. Feed it decoded text (`TextDecoder` with `stream: true` keeps split characters whole).
 */
export class SseDecoder {
  private buffer = '';
  private data: string[] = [];
  /** The last push ended in CR: a LF that starts the next one belongs to the same line end. */
  private pendingCarriageReturn = false;

  /** Between events: no part of a line or of an event is held. */
  get idle(): boolean {
    return this.buffer === '' && this.data.length === 0 && !this.pendingCarriageReturn;
  }

  /** The data of every event completed by `text`, in order. */
  push(text: string): string[] {
    if (this.pendingCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.pendingCarriageReturn = false;
    const events: string[] = [];
    let buffer = this.buffer + text;
    let start = 0;
    // Each search resumes where it last stopped: a chunk with many lines and no CR is scanned once, not once per line.
    let lineFeed = -1;
    let carriageReturn = -1;
    for (;;) {
      if (lineFeed !== Infinity && lineFeed < start) lineFeed = indexOrInfinity(buffer, '\n', start);
      if (carriageReturn !== Infinity && carriageReturn < start) carriageReturn = indexOrInfinity(buffer, '\r', start);
      let end: number;
      let next: number;
      if (carriageReturn < lineFeed) {
        end = carriageReturn;
        if (carriageReturn === buffer.length - 1) {
          next = buffer.length;
          this.pendingCarriageReturn = true;
        } else next = buffer[carriageReturn + 1] === '\n' ? carriageReturn + 2 : carriageReturn + 1;
      } else if (lineFeed !== Infinity) {
        end = lineFeed;
        next = lineFeed + 1;
      } else break;
      this.line(buffer.slice(start, end), events);
      start = next;
    }
    buffer = buffer.slice(start);
    this.buffer = buffer;
    return events;
  }

  /**
   * The stream ended. An unterminated last line and an event without its blank line are dispatched too (servers
   * that close right after `data: [DONE]`); whether such a tail is whole is for the caller to judge.
   */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer !== '') this.line(this.buffer, events);
    this.buffer = '';
    this.line('', events);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.length === 1 ? this.data[0]! : this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' comment */) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    this.data.push(value);
  }
}

function indexOrInfinity(text: string, search: string, from: number): number {
  const index = text.indexOf(search, from);
  return index < 0 ? Infinity : index;
}

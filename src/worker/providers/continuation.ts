import type { ModelMessage } from 'ai';
import type { ModelRequest } from '../../core/model';
import { toModelMessages } from './history-mapping';

/** How a cut reply is continued: shared by the AI SDK providers and the lean Chat Completions one. */
export const CONTINUE_INSTRUCTION =
  'Your previous reply was cut off. Continue it exactly where it stopped, without repeating anything you already wrote.';

/**
 * The history as the SDK wants it. On a continuation the history already ends with the partial assistant message;
 * Anthropic refuses a final assistant text that ends in whitespace, so that tail is trimmed.
 */
export function prepareMessages(request: ModelRequest, style: 'prefill' | 'instruct'): ModelMessage[] {
  const messages = toModelMessages(request.history, { attachments: request.attachments });
  const last = messages.at(-1);
  if (request.continuation === undefined || last?.role !== 'assistant' || typeof last.content === 'string') return messages;
  const content = [...last.content];
  const tail = content.at(-1);
  if (tail?.type === 'text') {
    const trimmed = tail.text.trimEnd();
    if (trimmed === '') content.pop();
    else content[content.length - 1] = { ...tail, text: trimmed };
  }
  const prepared = content.length === 0 ? messages.slice(0, -1) : [...messages.slice(0, -1), { ...last, content }];
  return style === 'instruct' && content.length > 0 ? [...prepared, { role: 'user', content: CONTINUE_INSTRUCTION }] : prepared;
}

/**
 * Holds back the start of a continuation while it could still be a repeat of `written`; a full repeat is dropped,
 * anything that differs is let through whole. Whitespace at the seam is ignored for the comparison.
 */
export function createRepeatFilter(written: string) {
  const target = written.trimEnd();
  let held = '';
  let decided = target === '';
  return {
    accept(text: string): string {
      if (decided) return text;
      held += text;
      const candidate = held.trimStart();
      if (candidate.length < target.length) {
        if (target.startsWith(candidate)) return '';
        decided = true;
        return release();
      }
      decided = true;
      if (candidate.startsWith(target)) {
        held = '';
        return candidate.slice(target.length);
      }
      return release();
    },
    /** Whatever is still held back, for when the text ends (or a tool call starts) before it was decided. */
    release,
  };
  function release(): string {
    decided = true;
    const out = held;
    held = '';
    return out;
  }
}

/** What a stopped step throws: the signal's own reason (the loop's Stop), else a plain AbortError. */
export function abortReason(signal: AbortSignal, fallback?: unknown): unknown {
  if (signal.aborted) return signal.reason;
  return fallback ?? new DOMException('The step was stopped.', 'AbortError');
}

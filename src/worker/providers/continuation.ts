/** What the providers share about continuing a cut reply (see `buildPrompt` and `instructedMessages` for the prompt's part). */

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
